package warp

import (
	"encoding/binary"
	"errors"
	"math"
)

// pb is one protobuf message in its wire form (the bytes prost's
// encode_to_vec writes). Warp's Task is read field by field from the
// numbers in its .proto: there is no generated code for it here, and only
// a few of its fields matter to a transcript.
type pb []byte

var errWire = errors.New("not a protobuf message (bad wire data)")

// field is one field as it stands on the wire: a varint's value (fixed64
// and fixed32 too), or the bytes of a length-delimited field.
type field struct {
	num   int
	wire  int
	value uint64
	bytes []byte
}

// fields lists m's fields in wire order.
func (m pb) fields() ([]field, error) {
	var out []field
	for b := []byte(m); len(b) > 0; {
		tag, n := binary.Uvarint(b)
		if n <= 0 || tag>>3 == 0 || tag>>3 > math.MaxInt32 {
			return out, errWire
		}
		b = b[n:]
		f := field{num: int(tag >> 3), wire: int(tag & 7)}
		switch f.wire {
		case 0: // varint
			f.value, n = binary.Uvarint(b)
			if n <= 0 {
				return out, errWire
			}
			b = b[n:]
		case 1: // fixed64
			if len(b) < 8 {
				return out, errWire
			}
			f.value, b = binary.LittleEndian.Uint64(b), b[8:]
		case 2: // length-delimited: strings, bytes, messages, packed lists
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return out, errWire
			}
			f.bytes, b = b[n:n+int(l)], b[n+int(l):]
		case 5: // fixed32
			if len(b) < 4 {
				return out, errWire
			}
			f.value, b = uint64(binary.LittleEndian.Uint32(b)), b[4:]
		default: // groups: proto2 only, never in Warp's messages
			return out, errWire
		}
		out = append(out, f)
	}
	return out, nil
}

// all returns every length-delimited field num (a repeated field's items).
func (m pb) all(num int) []pb {
	fs, _ := m.fields()
	var out []pb
	for _, f := range fs {
		if f.num == num && f.wire == 2 {
			out = append(out, pb(f.bytes))
		}
	}
	return out
}

// msg returns field num's bytes (the last one, as protobuf merges), and
// whether it is there.
func (m pb) msg(num int) (pb, bool) {
	all := m.all(num)
	if len(all) == 0 {
		return nil, false
	}
	return all[len(all)-1], true
}

// str is string field num ("" when absent).
func (m pb) str(num int) string {
	b, _ := m.msg(num)
	return string(b)
}

// strs is repeated string field num.
func (m pb) strs(num int) []string {
	var out []string
	for _, b := range m.all(num) {
		out = append(out, string(b))
	}
	return out
}

// varint is varint field num (0 when absent).
func (m pb) varint(num int) uint64 {
	fs, _ := m.fields()
	var v uint64
	for _, f := range fs {
		if f.num == num && f.wire == 0 {
			v = f.value
		}
	}
	return v
}

// oneof returns the first of m's length-delimited fields whose number is
// in names, with its name: the case a oneof holds.
func (m pb) oneof(names map[int]string) (int, pb, bool) {
	fs, _ := m.fields()
	for _, f := range fs {
		if _, ok := names[f.num]; ok && f.wire == 2 {
			return f.num, pb(f.bytes), true
		}
	}
	return 0, nil, false
}

// has reports whether field num is there at all.
func (m pb) has(num int) bool {
	fs, _ := m.fields()
	for _, f := range fs {
		if f.num == num {
			return true
		}
	}
	return false
}
