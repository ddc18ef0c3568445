// Package lines reads JSONL files the way an importer needs them while an
// agent may still be writing: line by line from a byte offset, with line
// numbers and the offset after each complete line, tolerating a torn last
// line (it is handed out flagged, so the caller can leave it for next time).
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Line is one line of input without its line terminator.
type Line struct {
	Text []byte // valid until the next call to Next
	No   int    // 1-based line number in the file
	// Start and End are the byte offsets of the line and of the byte after
	// its newline (for an unterminated last line, after its last byte).
	Start, End int64
	// Terminated is false for a last line with no newline: it may be half
	// written.
	Terminated bool
}

// Reader yields lines from r, which is positioned at byte offset base of a
// file whose previous lines numbered baseLine.
type Reader struct {
	r    *bufio.Reader
	off  int64
	no   int
	buf  []byte
	line Line
	err  error
}

// NewReader returns a Reader over r starting at byte offset base, after
// baseLine lines.
func NewReader(r io.Reader, base int64, baseLine int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 256<<10), off: base, no: baseLine}
}

// Next advances to the next line. It returns false at end of input or on a
// read error (see Err).
func (lr *Reader) Next() bool {
	if lr.err != nil {
		return false
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.buf = append(lr.buf, chunk...)
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			lr.err = io.EOF
			if len(lr.buf) == 0 {
				return false
			}
			break
		}
		lr.err = err
		return false
	}
	start := lr.off
	lr.off += int64(len(lr.buf))
	lr.no++
	text := lr.buf
	terminated := bytes.HasSuffix(text, []byte{'\n'})
	text = bytes.TrimSuffix(text, []byte{'\n'})
	text = bytes.TrimSuffix(text, []byte{'\r'})
	if start == 0 {
		text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf")) // UTF-8 BOM
	}
	lr.line = Line{Text: text, No: lr.no, Start: start, End: lr.off, Terminated: terminated}
	return true
}

// Line is the current line.
func (lr *Reader) Line() Line { return lr.line }

// Err is the first read error other than end of input.
func (lr *Reader) Err() error {
	if errors.Is(lr.err, io.EOF) {
		return nil
	}
	return lr.err
}

// Blank reports whether b holds only whitespace.
func Blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
