package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// Session ids come from transcripts and other programs' databases: one may
// hold bytes that are not UTF-8, control characters or spaces. Printed raw,
// such an id garbles the terminal (or cannot be selected and pasted back);
// sanitised, it no longer names the session. So an id is printed as is when
// it is plain, and otherwise as an escaped, single-quoted form that survives
// copy and paste into any shell ('abc\xff'), which show, export and resume
// accept back (resolveSession).

// displayID is id as a person can type it back.
func displayID(id string) string {
	if plainID(id) {
		return id
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(id); {
		r, size := utf8.DecodeRuneInString(id[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, id[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\'':
			b.WriteString(`\x27`) // never a bare quote inside the quotes
		case r == ' ' || (unicode.IsPrint(r) && termtext.Sanitize(string(r)) == string(r)):
			b.WriteRune(r)
		case r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// plainID reports whether id can be printed and typed back as it is: valid
// UTF-8, printable, no spaces, quotes, backslashes or other characters a
// shell would take for syntax, nothing the sanitizer would change.
func plainID(id string) bool {
	if id == "" || !utf8.ValidString(id) || termtext.Sanitize(id) != id {
		return false
	}
	for _, r := range id {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || strings.ContainsRune("'\"\\`$;&|<>(){}[]*?!#~", r) {
			return false
		}
	}
	return true
}

// unescapeID reverses displayID: the quotes are optional (the shell usually
// took them off), and \xHH, \uHHHH, \UHHHHHHHH, \\ and the other Go escapes
// are decoded. ok is false when s is neither quoted nor holds an escape,
// or holds a malformed one.
func unescapeID(s string) (id string, ok bool) {
	quoted := len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\''
	if quoted {
		s = s[1 : len(s)-1]
	}
	if !quoted && !strings.Contains(s, `\`) {
		return "", false
	}
	var b strings.Builder
	for s != "" {
		if strings.HasPrefix(s, `\'`) || strings.HasPrefix(s, `\"`) {
			b.WriteByte(s[1])
			s = s[2:]
			continue
		}
		if s[0] != '\\' {
			b.WriteByte(s[0]) // copied byte for byte, valid UTF-8 or not
			s = s[1:]
			continue
		}
		r, multibyte, tail, err := strconv.UnquoteChar(s, 0)
		if err != nil {
			return "", false
		}
		if multibyte {
			b.WriteRune(r)
		} else {
			b.WriteByte(byte(r)) // \xHH is a byte, not a code point
		}
		s = tail
	}
	return b.String(), true
}

// sessionReader finds and reads sessions: a secrets.Reader, so that the
// session a command shows has its title redacted.
type sessionReader interface {
	ResolveSessionID(ctx context.Context, prefix string) (string, error)
	Session(ctx context.Context, id string) (store.Session, error)
}

// resolveSession finds a session by id, unique id prefix, or the escaped
// form displayID prints.
func resolveSession(env *Env, st sessionReader, arg string) (store.Session, error) {
	id, err := st.ResolveSessionID(env.Ctx, arg)
	if errors.Is(err, store.ErrNotFound) {
		if un, ok := unescapeID(arg); ok {
			id, err = st.ResolveSessionID(env.Ctx, un)
		}
	}
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return store.Session{}, fmt.Errorf("no session %s (see 'recall recent' for ids)", displayID(arg))
		}
		return store.Session{}, err
	}
	return st.Session(env.Ctx, id)
}

// shortIDer gives the short ids people see (store.Store.ShortIDs).
type shortIDer interface {
	ShortIDs(ctx context.Context, ids []string) (map[string]string, error)
}

// shortIDs are the short ids of ids (store.Store.ShortIDs), as a person
// sees and types them back; a session it cannot shorten (or a failed read)
// keeps its stored id.
type shortIDs map[string]string

// shortIDsOf reads the short ids of ids from st.
func shortIDsOf(env *Env, st shortIDer, ids []string) shortIDs {
	m, err := st.ShortIDs(env.Ctx, ids)
	if err != nil {
		return shortIDs{} // the stored ids name them as well, only longer
	}
	return m
}

// of is id's short id for JSON, "" when there is none: one that is not
// valid UTF-8 (which a JSON string cannot carry) in its escaped form
// (displayID), as session_id_escaped gives the whole id.
func (s shortIDs) of(id string) string {
	short := s[id]
	if !utf8.ValidString(short) {
		return displayID(short)
	}
	return short
}

// shown is id as printed for a person: its short id, typeable (displayID).
func (s shortIDs) shown(id string) string {
	if short, ok := s[id]; ok {
		return displayID(short)
	}
	return displayID(id)
}
