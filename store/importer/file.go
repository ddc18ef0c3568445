package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/jsonstream"
)

// window is how many bytes at the head of a file, and before the resume
// offset, are hashed to tell a file that grew from one that was edited.
const window = 4096

// Cursor is where an importer stopped reading a file: the offset after the
// last complete line it consumed, that line's number, and hashes of the
// bytes at the head of the file and just before the offset.
type Cursor struct {
	Offset int64  `json:"o"`
	Line   int    `json:"l"`
	Head   string `json:"h,omitempty"`
	Tail   string `json:"t,omitempty"`
}

// savedState is what ImportFile.State holds: the cursor plus the source's
// own parser state at that cursor.
type savedState struct {
	Cursor Cursor          `json:"c"`
	Parser json.RawMessage `json:"p,omitempty"`
	// Version is the parser's (Versioned), 0 for parsers without one.
	Version int `json:"v,omitempty"`
}

// Plan says how to bring one file up to date.
type Plan struct {
	Path    string
	Source  string
	Size    int64
	ModTime time.Time
	// Unchanged is true when size and mtime are what was recorded: nothing to do.
	Unchanged bool
	// Full is true when the file is read from the start and replaces what it
	// produced before (first import, truncated or edited file).
	Full bool
	// Seen is true when the file was imported before.
	Seen bool
	// From is where to resume (zero when Full); Parser is the parser state
	// saved there (nil when Full).
	From   Cursor
	Parser json.RawMessage
	// Sessions are the sessions the file produced before.
	Sessions []string
	// Version is the parser version the file was last imported with
	// (savedState.Version; 0 when none was saved).
	Version int
	// Ident is the file's identity (FileIdent), recorded with its state.
	Ident string
	// Recheck are sessions (stored ids) the file listed that an older
	// recall may have merged with another source's session of the same id
	// (store.Tx.ClaimMerged): the file is read again in full.
	Recheck []string
	// Intact is true when the file still holds everything the last import
	// read (unchanged, or only grown): a full re-read (a new parser
	// version) may then replace what it produced. Otherwise the agent
	// rewrote it, maybe shorter, and what it no longer holds is kept.
	Intact bool
}

// PlanFile compares path with what tx recorded about it. whole marks
// formats that are only ever read in full (whole-file JSON, compressed
// streams): any change re-imports them.
func PlanFile(tx *store.Tx, source, path string, whole bool) (Plan, error) {
	fi, err := StatRegular(path)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Path: path, Source: source, Size: fi.Size(), ModTime: fi.ModTime(), Full: true}
	prev, ok, err := tx.ImportFile(path)
	if err != nil {
		return Plan{}, fmt.Errorf("read import state of %s: %w", path, err)
	}
	p.Ident = prev.Ident
	if !ok || prev.Ident == "" {
		if p.Ident, err = identOf(path); err != nil {
			return Plan{}, err
		}
	}
	if !ok {
		// A file on a new path may be one imported before under another
		// name: its record (cursor and sessions) comes along, so nothing
		// is imported twice.
		moved, found, err := adoptMoved(tx, source, path, p.Ident, fi, whole)
		if err != nil {
			return Plan{}, err
		}
		if found {
			prev, ok = moved, true
		}
	} else if prev.Ident == "" && p.Ident != "" {
		if err := tx.SetImportIdent(path, p.Ident); err != nil {
			return Plan{}, fmt.Errorf("record identity of %s: %w", path, err)
		}
	}
	if !ok || prev.Source != source {
		// Never read, or read by another importer (given the wrong format,
		// which imported nothing): this one reads it as new.
		return p, nil
	}
	p.Seen = true
	// The file's records name its sessions by the source's own ids; the
	// transaction maps them back to the stored ones.
	if p.Sessions, err = tx.AdoptSessions(strings.Fields(prev.Sessions)); err != nil {
		return Plan{}, err
	}
	if p.Recheck, err = tx.RecheckSessions(path); err != nil {
		return Plan{}, err
	}
	if len(p.Recheck) > 0 {
		// A session of it may have been merged into another source's by an
		// older recall: read it all again and take its messages back.
		return p, nil
	}
	var st savedState
	stateOK := prev.State != "" && json.Unmarshal([]byte(prev.State), &st) == nil
	p.Version = st.Version
	if prev.Size == p.Size && SameModTime(prev.ModTime, p.ModTime) {
		p.Unchanged = true
		p.Full = false
		p.Intact = true
		return p, nil
	}
	if whole {
		return p, nil
	}
	if !stateOK {
		return p, nil
	}
	if p.Size < st.Cursor.Offset {
		return p, nil // truncated
	}
	f, err := OpenRegular(path)
	if err != nil {
		return Plan{}, err
	}
	defer f.Close()
	head, tail, err := windows(f, st.Cursor.Offset)
	if err != nil {
		return Plan{}, err
	}
	if head != st.Cursor.Head || tail != st.Cursor.Tail {
		return p, nil // edited before the offset
	}
	p.Full = false
	p.Intact = true
	p.From = st.Cursor
	p.Parser = st.Parser
	return p, nil
}

// SameModTime compares a recorded mtime with a file's: the store keeps
// times as REAL Unix seconds, which hold about a quarter of a microsecond,
// so nanosecond mtimes never compare equal after a round trip.
func SameModTime(recorded, actual time.Time) bool {
	d := recorded.Sub(actual)
	return d < time.Microsecond && d > -time.Microsecond
}

// windows hashes the head of r and the window before off.
func windows(r io.ReaderAt, off int64) (head, tail string, err error) {
	hash := func(from, to int64) (string, error) {
		if to <= from {
			return "", nil
		}
		buf := make([]byte, to-from)
		if _, err := r.ReadAt(buf, from); err != nil && err != io.EOF {
			return "", fmt.Errorf("read window: %w", err)
		}
		sum := sha256.Sum256(buf)
		return hex.EncodeToString(sum[:12]), nil
	}
	head, err = hash(0, min(window, off))
	if err != nil {
		return "", "", err
	}
	tail, err = hash(max(0, off-window), off)
	return head, tail, err
}

// CursorAt builds the cursor for resuming path at off (after line lines).
func CursorAt(path string, off int64, line int) (Cursor, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return Cursor{}, err
	}
	defer f.Close()
	head, tail, err := windows(f, off)
	if err != nil {
		return Cursor{}, err
	}
	return Cursor{Offset: off, Line: line, Head: head, Tail: tail}, nil
}

// Batch is what one file produced since the plan's cursor; Commit writes it
// in the caller's transaction together with the new cursor.
type Batch struct {
	// Sessions are created if new; with Overwrite their metadata (title,
	// model, tokens, ...) also replaces what is stored, so they must carry
	// the full current values, not deltas.
	Sessions  []store.Session
	Overwrite bool
	Messages  []store.Message
	// Cursor and Parser are saved so the next import resumes after them.
	Cursor  Cursor
	Parser  any
	Version int // saved with the cursor (Versioned)
	// Claim, when set, runs after the sessions are written and before the
	// messages are (Claimer).
	Claim func(tx *store.Tx) error
}

// Commit writes b in tx: on a full re-import of an intact file (Plan.Intact)
// it first deletes the messages of every session the file produced before;
// of a file the agent rewrote it keeps them and inserts only the messages
// not stored yet (store.Tx.DropStored), so history the agent dropped stays.
// Then it creates or updates the
// sessions (parents first; a parent the batch does not carry gets a minimal
// row so the foreign key holds until its own file is imported), inserts the
// messages and records the file's new size, mtime, cursor and state. It
// returns how many messages were inserted.
func Commit(tx *store.Tx, p Plan, b Batch) (int, error) {
	ids := map[string]bool{}
	var all []string
	for _, id := range p.Sessions {
		if !ids[id] {
			ids[id] = true
			all = append(all, id)
		}
	}
	// The sessions first: the store maps the records' ids to stored ones
	// by them (a session of another source may hold the same id).
	if err := WriteSessions(tx, b.Sessions, b.Overwrite); err != nil {
		return 0, err
	}
	for _, merged := range p.Recheck {
		if _, err := tx.ClaimMerged(merged, b.Messages); err != nil {
			return 0, err
		}
	}
	if len(p.Recheck) > 0 {
		if err := tx.DoneRecheck(p.Path); err != nil {
			return 0, err
		}
	}
	if p.Full && p.Seen {
		for _, id := range all {
			if !p.Intact {
				var err error
				if b.Messages, err = tx.DropStored(id, b.Messages); err != nil {
					return 0, err
				}
				continue
			}
			if err := tx.DeleteSessionMessages(id); err != nil {
				return 0, fmt.Errorf("delete messages of %s: %w", id, err)
			}
		}
	}
	for _, s := range b.Sessions {
		if !ids[s.ID] {
			ids[s.ID] = true
			all = append(all, s.ID)
		}
	}
	if b.Claim != nil {
		if err := b.Claim(tx); err != nil {
			return 0, err
		}
	}
	n := 0
	if len(b.Messages) > 0 {
		var err error
		n, err = tx.InsertMessages(b.Messages)
		if err != nil {
			return 0, fmt.Errorf("insert messages: %w", err)
		}
	}
	if p.Full && p.Seen {
		// A session the file produced before and no longer does (its id
		// now comes from the file's own record, not its name) goes when
		// it is left empty, and so leaves the file's list.
		kept, err := dropLeftBehind(tx, all, b.Sessions)
		if err != nil {
			return 0, err
		}
		all = kept
	}
	state := savedState{Cursor: b.Cursor, Version: b.Version}
	if b.Parser != nil {
		raw, err := json.Marshal(b.Parser)
		if err != nil {
			return 0, fmt.Errorf("encode parser state: %w", err)
		}
		state.Parser = raw
	}
	raw, err := json.Marshal(state)
	if err != nil {
		return 0, fmt.Errorf("encode import state: %w", err)
	}
	err = tx.SetImportFile(store.ImportFile{
		Path: p.Path, Source: p.Source, Size: p.Size, ModTime: p.ModTime,
		Offset: b.Cursor.Offset, State: string(raw), Sessions: strings.Join(all, " "), Ident: p.Ident,
	})
	if err != nil {
		return 0, fmt.Errorf("save import state of %s: %w", p.Path, err)
	}
	return n, nil
}

// dropLeftBehind deletes the sessions of ids that produced is not among and
// that nothing refers to any more, and returns ids without them.
func dropLeftBehind(tx *store.Tx, ids []string, produced []store.Session) ([]string, error) {
	now := map[string]bool{}
	for _, s := range produced {
		now[s.ID] = true
	}
	kept := ids[:0:0]
	for _, id := range ids {
		if !now[id] {
			gone, err := tx.DeleteSessionIfEmpty(id)
			if err != nil {
				return nil, fmt.Errorf("delete session %s: %w", id, err)
			}
			if gone {
				continue
			}
		}
		kept = append(kept, id)
	}
	return kept, nil
}

// DropTooLarge returns msgs without the messages larger than the store
// keeps (a reply merged from several lines can pass every line's bound and
// still be too large), each reported as one problem of file, so that it
// costs only itself and never the file's other records.
func DropTooLarge(msgs []store.Message, file string, rep *Report) []store.Message {
	return dropTooLarge(msgs, file, rep, false)
}

// DropStreamedTooLarge is DropTooLarge for messages read by jsonstream (a
// streamed export), where a string too long to keep was replaced by its
// placeholder: such a message is too large too. Only a streamed reader
// writes the placeholder, so only its messages are looked at for it: any
// other transcript may quote the placeholder's text (a session reading
// jsonstream's source) and is kept.
func DropStreamedTooLarge(msgs []store.Message, file string, rep *Report) []store.Message {
	return dropTooLarge(msgs, file, rep, true)
}

func dropTooLarge(msgs []store.Message, file string, rep *Report, streamed bool) []store.Message {
	out := msgs[:0]
	for _, m := range msgs {
		err := store.CheckMessageSize(m)
		if err == nil && streamed {
			if n, held := oversize(m); held {
				err = store.TooLargeError(n)
			}
		}
		if err != nil {
			rep.Malformed++
			rep.note(Problem{File: file, Msg: fmt.Sprintf("a %s message of session %s at %s: %v: skipped", m.Role, m.SessionID, m.Timestamp.UTC().Format(time.RFC3339), err)})
			continue
		}
		out = append(out, m)
	}
	return out
}

// oversize reports whether a field of m holds the placeholder of a string
// that was too long to read, and how large m then really is.
func oversize(m store.Message) (int64, bool) {
	var total int64
	any := false
	for _, f := range []string{m.Content, m.ToolCalls, m.Reasoning, m.ToolName, m.ToolCallID, m.FinishReason} {
		n, ok := jsonstream.Oversize(f)
		total += n
		any = any || ok
	}
	return total, any
}

// MarkUnchanged records a file whose size or mtime moved without new
// content, so the next run skips it again.
func MarkUnchanged(tx *store.Tx, p Plan) error {
	prev, ok, err := tx.ImportFile(p.Path)
	if err != nil || !ok {
		return err
	}
	prev.Size, prev.ModTime = p.Size, p.ModTime
	return tx.SetImportFile(prev)
}

// WriteSessions creates sessions (and with overwrite updates their
// metadata), parents before children; a parent missing from sessions gets a
// minimal row so the foreign key holds until its own data arrives.
func WriteSessions(tx *store.Tx, sessions []store.Session, overwrite bool) error {
	// A session is its source and id: one batch may hold two sources'
	// sessions of one id (a generic JSONL file).
	key := func(s store.Session, id string) string { return s.Machine + "\x00" + s.Source + "\x00" + id }
	in := map[string]bool{}
	for _, s := range sessions {
		in[key(s, s.ID)] = true
	}
	done := map[string]bool{}
	var write func(s store.Session, depth int) error
	write = func(s store.Session, depth int) error {
		if done[key(s, s.ID)] {
			return nil
		}
		done[key(s, s.ID)] = true
		if s.ParentID != "" && s.ParentID != s.ID && depth < 64 {
			if in[key(s, s.ParentID)] {
				for _, p := range sessions {
					if p.ID == s.ParentID && key(p, p.ID) == key(s, s.ParentID) {
						if err := write(p, depth+1); err != nil {
							return err
						}
					}
				}
			} else if err := parentRow(tx, s); err != nil {
				return fmt.Errorf("create parent session %s: %w", s.ParentID, err)
			}
		}
		if s.ParentID == s.ID {
			s.ParentID = ""
		}
		if err := tx.UpsertSession(s); err != nil {
			return fmt.Errorf("create session %s: %w", s.ID, err)
		}
		if overwrite {
			if err := tx.UpdateSession(s); err != nil {
				return fmt.Errorf("update session %s: %w", s.ID, err)
			}
		}
		return nil
	}
	for _, s := range sessions {
		if err := write(s, 0); err != nil {
			return err
		}
	}
	return nil
}

// parentRow gives s's parent, which the batch does not carry, a minimal row
// of s's source, unless a session of that id exists (of s's source, or the
// one session of that id: a Hermes parent may be of another platform).
func parentRow(tx *store.Tx, s store.Session) error {
	if _, ok, err := tx.ParentSession(s); err != nil || ok {
		return err
	}
	return tx.UpsertSession(store.Session{ID: s.ParentID, Source: s.Source, Machine: s.Machine, StartedAt: s.StartedAt})
}
