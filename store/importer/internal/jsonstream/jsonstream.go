// Package jsonstream reads one JSON text as a stream with bounded memory:
// containers are walked member by member, and a value is either read past
// or captured into a buffer of the caller's, where a string too long to
// keep is replaced by a short placeholder (Oversize) before its bytes are
// held. A data export's 600 MB message then costs the read buffer, not
// 600 MB (encoding/json's Decoder holds every value it returns whole).
//
// The captured bytes are JSON again, for encoding/json to decode: this
// package checks only what it needs to find a value's end (strings,
// brackets matched, nesting depth); the decoder checks the rest.
package jsonstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting read, as encoding/json's.
const MaxDepth = 10000

// placeholder starts the text a string too long to keep is replaced by: a
// NUL (no chat text holds one) and the string's length in bytes.
const placeholder = "\x00recall:oversize:"

// escapedPlaceholder is placeholder as it reads inside captured JSON (a
// string copied raw into another field, such as a tool call's input).
const escapedPlaceholder = `\u0000recall:oversize:`

// Oversize reports whether s holds the placeholder of strings too long to
// keep, and how many bytes they and the rest of s came to.
func Oversize(s string) (size int64, ok bool) {
	rest := s
	for {
		i, n := strings.Index(rest, placeholder), len(placeholder)
		if j := strings.Index(rest, escapedPlaceholder); j >= 0 && (i < 0 || j < i) {
			i, n = j, len(escapedPlaceholder)
		}
		if i < 0 {
			return size + int64(len(rest)), ok
		}
		size += int64(i)
		rest = rest[i+n:]
		end := 0
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		v, _ := strconv.ParseInt(rest[:end], 10, 64)
		size += v
		ok = true
		rest = rest[end:]
		// The placeholder's closing NUL, raw or escaped.
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "\x00"), `\u0000`)
	}
}

// SyntaxError is JSON that cannot be followed: the stream ends there.
type SyntaxError struct {
	Msg    string
	Offset int64 // the byte where it was found
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (byte %d)", e.Msg, e.Offset) }

// ErrBudget is returned by Capture for a value whose structure alone
// (brackets, numbers, short strings) outgrew the budget: it was read past
// and what was captured of it is incomplete.
var ErrBudget = errors.New("the value is larger than recall reads")

// Reader reads a JSON text from an io.Reader.
type Reader struct {
	src   io.Reader
	buf   []byte
	r, w  int
	base  int64 // offset of buf[0] in the stream
	err   error // the source's error (io.EOF at its end), once buf is drained
	tee   io.Writer
	stack []byte // the containers Capture is inside, by closing byte
}

// NewReader reads from src; a UTF-8 byte order mark at its start is passed over.
func NewReader(src io.Reader) *Reader {
	rd := &Reader{src: src, buf: make([]byte, 256<<10)}
	if rd.fill(3) == nil && bytes.HasPrefix(rd.buf[rd.r:rd.w], []byte("\xef\xbb\xbf")) {
		rd.r += 3
	}
	return rd
}

// Offset is how many bytes of the text were consumed.
func (rd *Reader) Offset() int64 { return rd.base + int64(rd.r) }

// Tee makes every byte consumed from now on be written to w too (nil
// stops it): a fingerprint of a value's exact bytes.
func (rd *Reader) Tee(w io.Writer) { rd.tee = w }

// fill makes at least n unread bytes buffered, unless the source ends.
func (rd *Reader) fill(n int) error {
	for rd.w-rd.r < n {
		if rd.err != nil {
			return rd.err
		}
		if rd.r > 0 {
			copy(rd.buf, rd.buf[rd.r:rd.w])
			rd.base += int64(rd.r)
			rd.w -= rd.r
			rd.r = 0
		}
		if rd.w == len(rd.buf) {
			rd.buf = append(rd.buf, make([]byte, len(rd.buf))...)
		}
		m, err := rd.src.Read(rd.buf[rd.w:])
		rd.w += m
		if err != nil {
			rd.err = err
		}
	}
	return nil
}

// consume passes n buffered bytes.
func (rd *Reader) consume(n int) {
	if rd.tee != nil {
		rd.tee.Write(rd.buf[rd.r : rd.r+n])
	}
	rd.r += n
}

func (rd *Reader) syntax(format string, a ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, a...), Offset: rd.Offset()}
}

// ReadErr is err (from Peek) as the error of a text that ended, or failed,
// where a value was expected.
func (rd *Reader) ReadErr(err error) error { return rd.readErr(err) }

func (rd *Reader) readErr(err error) error {
	if errors.Is(err, io.EOF) {
		return rd.syntax("unexpected end of JSON input")
	}
	return err
}

// Peek passes whitespace and returns the next byte, unconsumed; io.EOF at
// the end of the text.
func (rd *Reader) Peek() (byte, error) {
	for {
		if rd.r == rd.w {
			if err := rd.fill(1); err != nil {
				return 0, err
			}
		}
		switch c := rd.buf[rd.r]; c {
		case ' ', '\t', '\r', '\n':
			rd.consume(1)
		default:
			return c, nil
		}
	}
}

// expect consumes c, the next byte after whitespace.
func (rd *Reader) expect(c byte) error {
	got, err := rd.Peek()
	if err != nil {
		return rd.readErr(err)
	}
	if got != c {
		return rd.syntax("invalid character %q, expected %q", got, c)
	}
	rd.consume(1)
	return nil
}

// Iter walks the members of an object or the elements of an array.
type Iter struct {
	rd    *Reader
	close byte
	n     int
	err   error
	key   string
}

// Array starts reading an array: its '[' must come next.
func (rd *Reader) Array() *Iter { return rd.open('[', ']') }

// Object starts reading an object: its '{' must come next.
func (rd *Reader) Object() *Iter { return rd.open('{', '}') }

func (rd *Reader) open(o, c byte) *Iter {
	it := &Iter{rd: rd, close: c}
	it.err = rd.expect(o)
	return it
}

// maxKey is the longest object key kept (an id); a longer one reads as its
// placeholder.
const maxKey = 1 << 20

// Next moves to the next element (for an object, past its key and colon:
// Key names it), and reports false at the container's end or on an error
// (Err). The caller reads or skips each element's value before calling
// Next again.
func (it *Iter) Next() bool {
	if it.err != nil {
		return false
	}
	rd := it.rd
	c, err := rd.Peek()
	if err != nil {
		it.err = rd.readErr(err)
		return false
	}
	if c == it.close {
		rd.consume(1)
		it.err = io.EOF
		return false
	}
	if it.n > 0 {
		if c != ',' {
			it.err = rd.syntax("invalid character %q after an element, expected ',' or %q", c, it.close)
			return false
		}
		rd.consume(1)
	}
	it.n++
	if it.close == '}' {
		if c, err := rd.Peek(); err != nil || c != '"' {
			it.err = rd.syntax("an object key is not a string")
			return false
		}
		raw, err := rd.str(nil, true, maxKey)
		if err == nil {
			err = rd.expect(':')
		}
		if err != nil {
			it.err = err
			return false
		}
		it.key = Unquote(raw)
	}
	return true
}

// Key is the current member's key.
func (it *Iter) Key() string { return it.key }

// Err is the error that ended the walk, nil at the container's end.
func (it *Iter) Err() error {
	if errors.Is(it.err, io.EOF) {
		return nil
	}
	return it.err
}

// Unquote decodes a captured string as encoding/json does (invalid UTF-8
// becomes U+FFFD), so that a key compares equal to the same text decoded
// from a field; one that does not decode keeps its raw text.
func Unquote(raw []byte) string {
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw)
	}
	return s
}

// Skip reads past one value.
func (rd *Reader) Skip() error {
	_, err := rd.Capture(nil, 0, -1)
	return err
}

// Capture reads one value and appends its bytes (whitespace outside
// strings left out) to dst. A string longer than maxString (> 0), or one that would take what this call appended past
// budget bytes, is replaced by Oversize's placeholder (a short string with
// its length); when the rest outgrows budget too, the value is read to its
// end, the result is incomplete and ErrBudget is returned. A negative
// budget appends nothing at all (Skip).
func (rd *Reader) Capture(dst []byte, maxString, budget int) ([]byte, error) {
	start := len(dst)
	keep := budget >= 0
	over := false
	rd.stack = rd.stack[:0]
	for {
		c, err := rd.Peek()
		if err != nil {
			return dst, rd.readErr(err)
		}
		switch c {
		case '{', '[':
			if len(rd.stack) == MaxDepth {
				return dst, rd.syntax("nested deeper than %d levels", MaxDepth)
			}
			rd.stack = append(rd.stack, c+2) // '}' or ']'
			rd.consume(1)
			if keep {
				dst = append(dst, c)
			}
			continue
		case '}', ']':
			if len(rd.stack) == 0 || rd.stack[len(rd.stack)-1] != c {
				return dst, rd.syntax("invalid character %q", c)
			}
			rd.stack = rd.stack[:len(rd.stack)-1]
			rd.consume(1)
			if keep {
				dst = append(dst, c)
			}
		case ',', ':':
			if len(rd.stack) == 0 {
				return dst, rd.syntax("invalid character %q looking for a value", c)
			}
			rd.consume(1)
			if keep {
				dst = append(dst, c)
			}
			continue
		case '"':
			room := -1 // no limit
			if maxString > 0 {
				room = maxString
			}
			if left := max(0, budget-(len(dst)-start)); keep && budget > 0 && (room < 0 || left < room) {
				room = left
			}
			if dst, err = rd.str(dst, keep, room); err != nil {
				return dst, err
			}
		default:
			if dst, err = rd.scalar(dst, keep); err != nil {
				return dst, err
			}
		}
		if keep && budget > 0 && len(dst)-start > budget+len(placeholder)+24 {
			// The structure alone is over budget: read on, keep nothing more.
			keep, over = false, true
		}
		if len(rd.stack) == 0 {
			if over {
				return dst, ErrBudget
			}
			return dst, nil
		}
	}
}

// str reads a string (its opening quote next); with keep, it is appended,
// or its placeholder when longer than room bytes (room < 0: no limit).
func (rd *Reader) str(dst []byte, keep bool, room int) ([]byte, error) {
	rd.consume(1)
	start := len(dst)
	if keep {
		dst = append(dst, '"')
	}
	var size int64 // bytes of the string's body
	long := false
	for {
		if rd.r == rd.w {
			if err := rd.fill(1); err != nil {
				return dst, rd.readErr(err)
			}
		}
		chunk := rd.buf[rd.r:rd.w]
		i := bytes.IndexAny(chunk, "\"\\")
		if i < 0 {
			i = len(chunk)
		}
		if keep && !long {
			switch {
			case room >= 0 && size+int64(i) > int64(room):
				long, dst = true, release(dst, start)
			case room >= 0 && len(dst)+i > cap(dst) && size+int64(i) > bigString:
				// A long string: room for the longest it may be, once,
				// rather than append's doubling copies (the pages beyond
				// what is written are never touched, so cost nothing).
				nd := make([]byte, len(dst), start+room+len(placeholder)+32)
				copy(nd, dst)
				dst = append(nd, chunk[:i]...)
			default:
				dst = append(dst, chunk[:i]...)
			}
		}
		size += int64(i)
		rd.consume(i)
		if i == len(chunk) {
			continue
		}
		if chunk[i] == '"' {
			rd.consume(1)
			break
		}
		// A backslash and the byte it escapes (\uXXXX's digits are plain bytes).
		if err := rd.fill(2); err != nil {
			return dst, rd.readErr(err)
		}
		if keep && !long {
			if room >= 0 && size+2 > int64(room) {
				long, dst = true, release(dst, start)
			} else {
				dst = append(dst, rd.buf[rd.r:rd.r+2]...)
			}
		}
		size += 2
		rd.consume(2)
	}
	if !keep {
		return dst, nil
	}
	if long {
		return append(dst, fmt.Sprintf(`"\u0000recall:oversize:%d\u0000"`, size)...), nil
	}
	return append(dst, '"'), nil
}

// maxScalar is the longest number or literal read.
const maxScalar = 256

// bigString is the length past which a string being kept gets a buffer
// sized for the longest it may be.
const bigString = 1 << 20

// release cuts dst to n bytes, into a new small buffer when a string read
// past made it large: the string's memory is not kept for what follows.
func release(dst []byte, n int) []byte {
	if cap(dst)-n < bigString {
		return dst[:n]
	}
	return append(make([]byte, 0, n+4096), dst[:n]...)
}

// scalar reads a number, true, false or null: bytes up to a delimiter.
func (rd *Reader) scalar(dst []byte, keep bool) ([]byte, error) {
	n := 0
	for {
		if rd.r == rd.w {
			if err := rd.fill(1); err != nil {
				if errors.Is(err, io.EOF) && n > 0 && len(rd.stack) == 0 {
					return dst, nil // a scalar that ends the text
				}
				return dst, rd.readErr(err)
			}
		}
		c := rd.buf[rd.r]
		if c == ',' || c == ']' || c == '}' || c == ':' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '[' || c == '{' {
			if n == 0 {
				return dst, rd.syntax("invalid character %q looking for a value", c)
			}
			return dst, nil
		}
		if n == maxScalar {
			return dst, rd.syntax("a number or literal longer than %d bytes", maxScalar)
		}
		if c < 0x20 || c >= 0x7f {
			return dst, rd.syntax("invalid character %q looking for a value", c)
		}
		if keep {
			dst = append(dst, c)
		}
		n++
		rd.consume(1)
	}
}
