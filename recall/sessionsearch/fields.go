package sessionsearch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The keys of a discover result and of a browse item, in output order:
// what Fields may name.
var (
	discoverFields = []string{"session_id", "when", "source", "model", "title", "matched_role", "match_message_id",
		"snippet", "bookend_start", "messages", "bookend_end", "messages_before", "messages_after", "parent_session_id",
		"hits", "summary", "summary_kind", "summary_reason", "truncated", "matched_display_kind", "matched_words", "matched"}
	browseFields = []string{"session_id", "title", "source", "started_at", "last_active", "message_count", "preview"}

	// evidenceFields and summaryFields need reads (or a model) that a
	// projection without them can skip.
	evidenceFields = []string{"bookend_start", "messages", "bookend_end", "messages_before", "messages_after"}
	summaryFields  = []string{"summary", "summary_kind", "summary_reason"}
)

// CheckFields reports a field that results of the given mode ("discover" or
// "browse", as an empty query decides) do not have.
func CheckFields(query string, fields []string) error {
	valid, mode := discoverFields, "discover"
	if strings.TrimSpace(query) == "" {
		valid, mode = browseFields, "browse"
	}
	for _, f := range fields {
		if !slices.Contains(valid, f) {
			return fmt.Errorf("%q is not a field of %s results (fields: %s)", f, mode, strings.Join(valid, ", "))
		}
	}
	return nil
}

// projection keeps only some keys of each result; the zero value keeps all.
type projection struct{ keep map[string]bool }

func newProjection(fields []string) projection {
	if len(fields) == 0 {
		return projection{}
	}
	p := projection{keep: map[string]bool{}}
	for _, f := range fields {
		p.keep[f] = true
	}
	return p
}

// wantsAny reports whether the projection keeps any of keys.
func (p projection) wantsAny(keys ...string) bool {
	if p.keep == nil {
		return true
	}
	for _, k := range keys {
		if p.keep[k] {
			return true
		}
	}
	return false
}

// render encodes an envelope, drops the results' unwanted keys (keeping
// the order of the rest), and indents it when asked.
func (p projection) render(env any, indent bool) []byte {
	out := render(env, false)
	if p.keep != nil {
		out = p.filterResults(out)
	}
	if !indent {
		return out
	}
	var b bytes.Buffer
	if err := json.Indent(&b, out, "", "  "); err != nil {
		panic(fmt.Sprintf("sessionsearch: indent: %v", err)) // out is our own valid JSON
	}
	return b.Bytes()
}

// filterResults rewrites the top-level "results" array of a compact envelope.
func (p projection) filterResults(env []byte) []byte {
	var b bytes.Buffer
	err := eachMember(env, func(key string, val json.RawMessage) error {
		if key == "results" {
			var items []json.RawMessage
			if err := json.Unmarshal(val, &items); err != nil {
				return err
			}
			var rb bytes.Buffer
			rb.WriteByte('[')
			for i, it := range items {
				if i > 0 {
					rb.WriteByte(',')
				}
				if err := p.filterObject(&rb, it); err != nil {
					return err
				}
			}
			rb.WriteByte(']')
			val = rb.Bytes()
		}
		writeMember(&b, key, val)
		return nil
	})
	if err != nil {
		panic(fmt.Sprintf("sessionsearch: project: %v", err)) // env is our own valid JSON
	}
	return append(wrapObject(b.Bytes()), '\n')
}

func (p projection) filterObject(w *bytes.Buffer, obj json.RawMessage) error {
	var b bytes.Buffer
	err := eachMember(obj, func(key string, val json.RawMessage) error {
		if p.keep[key] {
			writeMember(&b, key, val)
		}
		return nil
	})
	w.Write(wrapObject(b.Bytes()))
	return err
}

// eachMember calls fn for each member of a JSON object, in order.
func eachMember(obj []byte, fn func(key string, val json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return err
		}
		if err := fn(tok.(string), val); err != nil {
			return err
		}
	}
	return nil
}

func writeMember(b *bytes.Buffer, key string, val json.RawMessage) {
	if b.Len() > 0 {
		b.WriteByte(',')
	}
	k, _ := json.Marshal(key)
	b.Write(k)
	b.WriteByte(':')
	b.Write(val)
}

func wrapObject(members []byte) []byte {
	return append(append([]byte{'{'}, members...), '}')
}
