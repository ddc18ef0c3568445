package export

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// spoolInMemory is how much of one conversation's items is kept in memory;
// past it they go to a temporary file, so a conversation of a million
// messages costs a small index per message, not the messages.
var spoolInMemory = 8 << 20

// spool keeps the raw items of one conversation: in memory while they are
// few, else in an unlinked temporary file (nothing is left behind by a
// killed import).
type spool struct {
	mem  []byte
	f    *os.File // opened by the first conversation too large for memory, kept for the import
	w    *bufio.Writer
	disk bool // this conversation is in f, not mem
	size int64
}

func (s *spool) append(parts ...[]byte) (int64, error) {
	off := s.size
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if !s.disk && len(s.mem)+n > spoolInMemory {
		if err := s.spill(); err != nil {
			return 0, err
		}
	}
	for _, p := range parts {
		if !s.disk {
			s.mem = append(s.mem, p...)
		} else if _, err := s.w.Write(p); err != nil {
			return 0, fmt.Errorf("write the temporary copy of a conversation: %w", err)
		}
	}
	s.size += int64(n)
	return off, nil
}

// spill moves what is in memory to the temporary file, opened the first
// time.
func (s *spool) spill() error {
	if s.f == nil {
		f, err := os.CreateTemp("", "recall-export-*.spool")
		if err != nil {
			return fmt.Errorf("a temporary file for a large conversation: %w", err)
		}
		// Unlinked at once where the system allows (a killed import leaves
		// nothing); elsewhere close removes it.
		_ = os.Remove(f.Name())
		s.f = f
		s.w = bufio.NewWriterSize(f, 256<<10)
	}
	s.disk = true
	if _, err := s.w.Write(s.mem); err != nil {
		return fmt.Errorf("write the temporary copy of a conversation: %w", err)
	}
	s.mem = nil
	return nil
}

// readAt fills p from offset off.
func (s *spool) readAt(p []byte, off int64) error {
	if !s.disk {
		copy(p, s.mem[off:])
		return nil
	}
	if s.w.Buffered() > 0 {
		if err := s.w.Flush(); err != nil {
			return fmt.Errorf("write the temporary copy of a conversation: %w", err)
		}
	}
	if _, err := s.f.ReadAt(p, off); err != nil && err != io.EOF {
		return fmt.Errorf("read the temporary copy of a conversation: %w", err)
	}
	return nil
}

// reset empties the spool for the next conversation, which starts in
// memory again.
func (s *spool) reset() error {
	s.size = 0
	if cap(s.mem) > spoolInMemory {
		s.mem = nil
	}
	s.mem = s.mem[:0]
	if !s.disk {
		return nil
	}
	s.disk = false
	s.w.Reset(s.f)
	if err := s.f.Truncate(0); err != nil {
		return err
	}
	_, err := s.f.Seek(0, io.SeekStart) // writes go on from the file's offset
	return err
}

func (s *spool) close() {
	if s.f != nil {
		name := s.f.Name()
		s.f.Close()
		os.Remove(name)
		s.f = nil
	}
}

// Link is where one item sits in its conversation: ChatGPT's messages form
// a tree (each names its parent), Claude.ai's a list that may link too.
type Link struct {
	ID     string // the mapping key or the message's own id
	Parent string
}

// item is the index entry of one spooled item: 24 bytes, whatever the
// item holds.
type item struct {
	off    int64
	keyLen int32
	valLen int32
	parent uint64 // hash of the parent's id; 0 for none
}

// chunkItems is how many index entries one block holds: the index grows a
// block at a time, never copied as a growing slice would be.
const chunkItems = 1 << 14

// idEntry maps an id's hash to its item, for lookups by binary search (a
// map of a million ids costs several times as much).
type idEntry struct {
	hash uint64
	item int32
}

// Items are the spooled items of one conversation, in the order read.
type Items struct {
	sp     spool
	blocks [][]item
	n      int
	ids    []idEntry // by hash, then item; built on the first lookup
	sorted bool
	seed   maphash.Seed
	buf    []byte
}

func newItems() *Items { return &Items{seed: maphash.MakeSeed()} }

func (it *Items) hash(id string) uint64 {
	if id == "" {
		return 0
	}
	return maphash.String(it.seed, id) | 1 // never 0, which means none
}

func (it *Items) at(i int) *item { return &it.blocks[i/chunkItems][i%chunkItems] }

// add spools one item.
func (it *Items) add(l Link, raw []byte) error {
	off, err := it.sp.append([]byte(l.ID), raw)
	if err != nil {
		return err
	}
	if it.n == len(it.blocks)*chunkItems {
		it.blocks = append(it.blocks, make([]item, chunkItems))
	}
	*it.at(it.n) = item{off: off, keyLen: int32(len(l.ID)), valLen: int32(len(raw)), parent: it.hash(l.Parent)}
	if l.ID != "" {
		it.ids = append(it.ids, idEntry{hash: it.hash(l.ID), item: int32(it.n)})
		it.sorted = false
	}
	it.n++
	return nil
}

func (it *Items) reset() error {
	it.n = 0
	if len(it.blocks) > 1 {
		it.blocks = it.blocks[:1]
	}
	it.ids = it.ids[:0]
	if cap(it.ids) > chunkItems {
		it.ids = nil
	}
	if cap(it.buf) > 4<<20 {
		it.buf = nil
	}
	return it.sp.reset()
}

// Len is how many items the conversation has.
func (it *Items) Len() int { return it.n }

// find is the item whose id hashes to h (the last one, when ids repeat).
func (it *Items) find(h uint64) (int, bool) {
	if h == 0 {
		return 0, false
	}
	if !it.sorted {
		slices.SortFunc(it.ids, func(a, b idEntry) int {
			if c := cmp.Compare(a.hash, b.hash); c != 0 {
				return c
			}
			return cmp.Compare(a.item, b.item)
		})
		it.sorted = true
	}
	// The first entry past h, then one back: the last with h.
	j, _ := slices.BinarySearchFunc(it.ids, h+1, func(e idEntry, t uint64) int { return cmp.Compare(e.hash, t) })
	if j == 0 || it.ids[j-1].hash != h {
		return 0, false
	}
	return int(it.ids[j-1].item), true
}

// Lookup finds the item with id (the last one, when ids repeat).
func (it *Items) Lookup(id string) (int, bool) { return it.find(it.hash(id)) }

// Parent is the item that item i names as its parent.
func (it *Items) Parent(i int) (int, bool) { return it.find(it.at(i).parent) }

// Linked reports whether any item names a parent.
func (it *Items) Linked() bool {
	for i := 0; i < it.n; i++ {
		if it.at(i).parent != 0 {
			return true
		}
	}
	return false
}

// Read returns item i's id and raw JSON, valid until the next Read.
func (it *Items) Read(i int) (id string, raw []byte, err error) {
	e := it.at(i)
	n := int(e.keyLen) + int(e.valLen)
	if cap(it.buf) < n {
		it.buf = make([]byte, n)
	}
	it.buf = it.buf[:n]
	if err := it.sp.readAt(it.buf, e.off); err != nil {
		return "", nil, err
	}
	return string(it.buf[:e.keyLen]), it.buf[e.keyLen:], nil
}

// Path is the branch ending at item leaf, root first: the walk up through
// each item's parent, stopping at a missing parent or a cycle.
func (it *Items) Path(leaf int) []int32 {
	seen := make([]uint64, (it.n+63)/64)
	var rev []int32
	for i, ok := leaf, true; ok; i, ok = it.Parent(i) {
		if seen[i/64]&(1<<(i%64)) != 0 {
			break
		}
		seen[i/64] |= 1 << (i % 64)
		rev = append(rev, int32(i))
	}
	slices.Reverse(rev)
	return rev
}

// Decode reads item i into v. A field of the wrong kind costs only that
// field: it is reported through t, as what and the item's id, and v holds
// the rest. JSON that does not decode is reported and ok is false.
func (it *Items) Decode(i int, v any, t *importer.Tally, what string) (ok bool, err error) {
	id, raw, err := it.Read(i)
	if err != nil {
		return false, err
	}
	if id == "" {
		id = fmt.Sprintf("#%d", i+1)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			t.Malformed("%s %s: %s", what, id, importer.DecodeProblem(err))
			return false, nil
		}
		t.Malformed("%s %s: %s (imported without it)", what, id, importer.DecodeProblem(err))
	}
	return true, nil
}

// Emitter passes a conversion's rows on, counting them, and gives the
// session the time of its first row when its head had none.
type Emitter struct {
	sess *store.Session
	emit func(store.Message) error
	N    int // rows emitted
}

// NewEmitter wraps Rows's sess and emit.
func NewEmitter(sess *store.Session, emit func(store.Message) error) *Emitter {
	return &Emitter{sess: sess, emit: emit}
}

// Put emits one row.
func (e *Emitter) Put(m store.Message) error {
	if e.N == 0 && e.sess.StartedAt.IsZero() {
		e.sess.StartedAt = m.Timestamp
	}
	e.N++
	return e.emit(m)
}
