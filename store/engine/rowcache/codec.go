package rowcache

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
)

// The rank cache files' bodies. The per-row arrays (a million lengths,
// sessions and times at 1M messages) are raw little-endian words: gob wrote
// them varint by varint, and a one-shot command spent 0.4 s of its 0.8 s
// decoding the sessions file.

var errCacheBody = errors.New("rank cache: malformed body")

// MarshalBinary writes the lengths file: UpTo, then every length.
func (f *lensFile) MarshalBinary() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(f.UpTo))
	return appendWords(b, f.Lens), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (f *lensFile) UnmarshalBinary(b []byte) error {
	r := cacheReader{b: b}
	f.UpTo = int64(r.uvarint())
	f.Lens = r.words()
	return r.done()
}

// sessionsTail is the part of a sessions file with one entry per session:
// small next to the per-message arrays, kept as gob.
type sessionsTail struct {
	IDs, Titles []string
	Started     []float64
	First       []int64
}

// MarshalBinary writes the sessions file: its bounds, the per-message
// arrays raw, then the per-session ones.
func (f *sessionsFile) MarshalBinary() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(f.UpTo))
	b = binary.AppendUvarint(b, uint64(f.SessUpTo))
	b = appendWords(b, int32Words(f.Of))
	b = appendWords(b, int32Words(f.At))
	var tail bytes.Buffer
	if err := gob.NewEncoder(&tail).Encode(sessionsTail{f.IDs, f.Titles, f.Started, f.First}); err != nil {
		return nil, err
	}
	return append(b, tail.Bytes()...), nil
}

// UnmarshalBinary reads what MarshalBinary wrote.
func (f *sessionsFile) UnmarshalBinary(b []byte) error {
	r := cacheReader{b: b}
	f.UpTo, f.SessUpTo = int64(r.uvarint()), int64(r.uvarint())
	f.Of, f.At = wordsInt32(r.words()), wordsInt32(r.words())
	if r.err != nil {
		return r.err
	}
	var tail sessionsTail
	if err := gob.NewDecoder(bytes.NewReader(r.b[r.off:])).Decode(&tail); err != nil {
		return err
	}
	f.IDs, f.Titles, f.Started, f.First = tail.IDs, tail.Titles, tail.Started, tail.First
	return nil
}

// appendWords appends a count and the words, four little-endian bytes each.
func appendWords(b []byte, ws []uint32) []byte {
	b = binary.AppendUvarint(b, uint64(len(ws)))
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

func int32Words(v []int32) []uint32 {
	out := make([]uint32, len(v))
	for i, x := range v {
		out[i] = uint32(x)
	}
	return out
}

func wordsInt32(v []uint32) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

// cacheReader reads a body, remembering the first error.
type cacheReader struct {
	b   []byte
	off int
	err error
}

func (r *cacheReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errCacheBody
		return 0
	}
	r.off += n
	return v
}

func (r *cacheReader) words() []uint32 {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)-r.off)/4 {
		r.err = errCacheBody
		return nil
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(r.b[r.off:])
		r.off += 4
	}
	return out
}

// done reports an error, or bytes left over.
func (r *cacheReader) done() error {
	if r.err == nil && r.off != len(r.b) {
		r.err = errCacheBody
	}
	return r.err
}
