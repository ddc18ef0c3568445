package export

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/jsonstream"
)

// Format is how one source's export is read as a stream: each
// conversation's messages (its Items) are read one at a time into a spool,
// the rest of it (its head) is decoded whole, and the rows are converted
// from the spool in the order the source chooses. One conversation of a
// million messages, or one message of 600 MB, then costs a small index
// entry per message and a bounded buffer, never the conversation.
type Format[C any] struct {
	// Items is the member of a conversation object holding its messages:
	// an object of them (ChatGPT's "mapping", keyed by id) or an array
	// (Claude.ai's "chat_messages"). Empty: the conversation is decoded
	// whole by Head (within the same bounds).
	Items string
	// Head decodes a conversation without its items (raw is the object
	// with the Items member left out): what Rows needs and the session as
	// far as the head tells. ok is false for one that yields nothing
	// (reported through t).
	Head func(raw json.RawMessage, t *importer.Tally) (c C, sess store.Session, ok bool)
	// Link reads where one item sits (key is its member name in an
	// object of items, "" in an array).
	Link func(key string, raw []byte) Link
	// Rows converts a conversation, calling emit for each message in
	// order; it may complete sess (a model, a start time) as it goes, and
	// stops when emit fails. It may be called more than once for one
	// conversation, each time with a fresh t.
	Rows func(c C, sess *store.Session, items *Items, t *importer.Tally, emit func(store.Message) error) error
}

// The bounds of what is read of one conversation: no string longer than a
// message recall stores is held (it reads as jsonstream's placeholder and
// the message it is in is skipped as too large), and one item, or the head
// of a conversation, holds at most two such strings and some structure
// (Claude.ai repeats a message's text in its content blocks).
var (
	maxString  = store.MaxMessageBytes
	itemBudget = 2*store.MaxMessageBytes + 1<<20
)

// streamer reads the conversations of one export.
type streamer[C any] struct {
	f     Format[C]
	rd    *jsonstream.Reader
	items *Items
	head  []byte
	buf   []byte
	sess  store.Session // the head's, of the conversation being read
}

// element reads one conversation: its items into s.items, the rest into
// the returned head. A nil head and nil error: the element was read past
// (reported through t).
func (s *streamer[C]) element(t *importer.Tally) ([]byte, error) {
	rd := s.rd
	c, err := rd.Peek()
	if err != nil {
		return nil, err
	}
	if c != '{' || s.f.Items == "" {
		raw, err := rd.Capture(s.head[:0], maxString, itemBudget)
		s.head = raw
		if errors.Is(err, jsonstream.ErrBudget) {
			t.Malformed("conversation: more than %d MB of JSON, more than recall reads of one: skipped", itemBudget>>20)
			return nil, nil
		}
		return raw, err
	}
	head := append(s.head[:0], '{')
	obj := rd.Object()
	for obj.Next() {
		key := obj.Key()
		if key == s.f.Items {
			if c, err := rd.Peek(); err == nil && (c == '{' || c == '[') {
				if err := s.readItems(c, t); err != nil {
					return nil, err
				}
				continue
			}
		}
		mark := len(head)
		if len(head) > 1 {
			head = append(head, ',')
		}
		k, _ := json.Marshal(key)
		head = append(append(head, k...), ':')
		head, err = rd.Capture(head, maxString, max(1, itemBudget-len(head)))
		if errors.Is(err, jsonstream.ErrBudget) {
			head = head[:mark]
			t.Malformed("conversation: its %q is larger than recall reads: left out", key)
			continue
		}
		if err != nil {
			return nil, err
		}
	}
	s.head = append(head, '}')
	if err := obj.Err(); err != nil {
		return nil, err
	}
	return s.head, nil
}

// readItems spools the items of a conversation, an object or an array of
// them (its first byte c next).
func (s *streamer[C]) readItems(c byte, t *importer.Tally) error {
	rd := s.rd
	open := rd.Array
	if c == '{' {
		open = rd.Object
	}
	it := open()
	for n := 1; it.Next(); n++ {
		raw, err := rd.Capture(s.buf[:0], maxString, itemBudget)
		s.buf = raw
		if errors.Is(err, jsonstream.ErrBudget) {
			name := it.Key()
			if c == '[' {
				name = fmt.Sprintf("%d", n)
			}
			t.Malformed("message %s: more than %d MB of JSON, more than recall reads of one: skipped", name, itemBudget>>20)
			continue
		}
		if err != nil {
			return err
		}
		if err := s.items.add(s.f.Link(it.Key(), raw), raw); err != nil {
			return err
		}
	}
	if cap(s.buf) > 4<<20 {
		s.buf = nil
	}
	return it.Err()
}

// checkHead blanks what a conversation's head holds of a string too long
// to keep; false when that is its id.
func checkHead(sess *store.Session, t *importer.Tally) bool {
	if n, ok := jsonstream.Oversize(sess.ID); ok {
		t.Malformed("conversation: its id is %.1f MB: skipped", float64(n)/(1<<20))
		return false
	}
	for _, f := range []*string{&sess.Title, &sess.Model, &sess.Cwd, &sess.ParentID} {
		if _, ok := jsonstream.Oversize(*f); ok {
			*f = ""
		}
	}
	return true
}

// SetLimits lowers the bounds of reading an export: the bytes of one
// conversation's items kept in memory before its spool goes to a file, the
// rows a batch holds (a conversation with more is written on its own as it
// is converted) and the longest string read. Tests of the importers built
// on this package take with a small export the paths a large one takes.
// It returns what restores the bounds.
func SetLimits(spoolBytes, batchRows, longestString int) (restore func()) {
	s, b, m, i := spoolInMemory, batchMessages, maxString, itemBudget
	spoolInMemory, batchMessages, maxString, itemBudget = spoolBytes, batchRows, longestString, 2*longestString+1<<20
	return func() { spoolInMemory, batchMessages, maxString, itemBudget = s, b, m, i }
}
