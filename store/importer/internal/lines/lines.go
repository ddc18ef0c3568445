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
	// TooLong marks a line longer than the reader's limit: its bytes were
	// read past, not kept, so Text is empty; End-Start is its size.
	TooLong bool
}

// Reader yields lines from r, which is positioned at byte offset base of a
// file whose previous lines numbered baseLine.
type Reader struct {
	r     *bufio.Reader
	off   int64
	no    int
	buf   []byte
	limit int
	line  Line
	err   error
}

// NewReader returns a Reader over r starting at byte offset base, after
// baseLine lines, with no limit on a line's length.
func NewReader(r io.Reader, base int64, baseLine int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 256<<10), off: base, no: baseLine}
}

// SetLimit bounds the memory one line may take: a line longer than n bytes
// (n > 0) is read past and handed out TooLong, without its text, so a
// 200 MB line costs a bounded buffer rather than a gigabyte of growing
// copies.
func (lr *Reader) SetLimit(n int) { lr.limit = n }

// bigBuffer is the capacity past which the line buffer is dropped once
// its line is done, so one huge line does not pin its memory for the rest
// of the file.
const bigBuffer = 4 << 20

// Next advances to the next line. It returns false at end of input or on a
// read error (see Err).
func (lr *Reader) Next() bool {
	if lr.err != nil {
		return false
	}
	if cap(lr.buf) > bigBuffer {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	var size int64 // bytes of this line read so far
	tooLong := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		size += int64(len(chunk))
		switch {
		case tooLong:
		case lr.limit > 0 && size > int64(lr.limit)+2: // +2: the \r\n the text does not count
			tooLong, lr.buf = true, nil
		case lr.limit > 0 && len(lr.buf)+len(chunk) > cap(lr.buf) && cap(lr.buf) >= bigBuffer:
			// A long line: one buffer of the limit's size now, rather than
			// the doubling copies append leaves behind for the collector
			// (they tripled the peak memory of a 64 MB line).
			buf := make([]byte, len(lr.buf), lr.limit+2)
			copy(buf, lr.buf)
			lr.buf = append(buf, chunk...)
		default:
			lr.buf = append(lr.buf, chunk...)
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			lr.err = io.EOF
			if size == 0 {
				return false
			}
			break
		}
		lr.err = err
		return false
	}
	start := lr.off
	lr.off += size
	lr.no++
	if tooLong {
		lr.line = Line{No: lr.no, Start: start, End: lr.off, TooLong: true, Terminated: lr.err == nil}
		return true
	}
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
