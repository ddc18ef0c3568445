package warp

import "math"

// spec names the fields of one message type that a transcript shows, by
// their numbers in Warp's task.proto (warpdotdev/warp-proto-apis,
// apis/multi_agent/v1/task.proto); decode turns such a message into
// JSON-ready values under the .proto's field names.
type spec map[int]fspec

type fspec struct {
	name string
	kind byte // 's' string, 'S' repeated string, 'v' integer, 'b' bool, 'm' message, 'M' repeated message, 'j' google.protobuf.Struct
	sub  spec
}

func s(name string) fspec           { return fspec{name: name, kind: 's'} }
func ss(name string) fspec          { return fspec{name: name, kind: 'S'} }
func v(name string) fspec           { return fspec{name: name, kind: 'v'} }
func m(name string, sub spec) fspec { return fspec{name: name, kind: 'm', sub: sub} }
func ms(name string, sub spec) fspec {
	return fspec{name: name, kind: 'M', sub: sub}
}

// decode reads the fields sp names; the others are left out.
func decode(b pb, sp spec) map[string]any {
	out := map[string]any{}
	fs, _ := b.fields()
	for _, f := range fs {
		fd, ok := sp[f.num]
		if !ok {
			continue
		}
		switch fd.kind {
		case 's':
			if f.wire == 2 && len(f.bytes) > 0 {
				out[fd.name] = string(f.bytes)
			}
		case 'S':
			if f.wire == 2 {
				l, _ := out[fd.name].([]string)
				out[fd.name] = append(l, string(f.bytes))
			}
		case 'v':
			if f.wire == 0 && f.value != 0 {
				out[fd.name] = int64(f.value)
			}
		case 'b':
			if f.wire == 0 && f.value != 0 {
				out[fd.name] = true
			}
		case 'm':
			if f.wire == 2 {
				out[fd.name] = decode(pb(f.bytes), fd.sub)
			}
		case 'M':
			if f.wire == 2 {
				l, _ := out[fd.name].([]any)
				out[fd.name] = append(l, decode(pb(f.bytes), fd.sub))
			}
		case 'j':
			if f.wire == 2 {
				out[fd.name] = structValue(pb(f.bytes))
			}
		}
	}
	return out
}

// structValue reads a google.protobuf.Struct (fields = 1, a map of
// string to Value) as JSON values.
func structValue(b pb) map[string]any {
	out := map[string]any{}
	for _, e := range b.all(1) { // map entry: key = 1, value = 2
		val, _ := e.msg(2)
		out[e.str(1)] = value(val)
	}
	return out
}

// value reads a google.protobuf.Value: null_value = 1, number_value = 2
// (a double), string_value = 3, bool_value = 4, struct_value = 5,
// list_value = 6 (values = 1).
func value(b pb) any {
	fs, _ := b.fields()
	for _, f := range fs {
		switch f.num {
		case 1:
			return nil
		case 2:
			if f.wire == 1 {
				return math.Float64frombits(f.value)
			}
		case 3:
			return string(f.bytes)
		case 4:
			return f.value != 0
		case 5:
			return structValue(pb(f.bytes))
		case 6:
			list := []any{}
			for _, item := range pb(f.bytes).all(1) {
				list = append(list, value(item))
			}
			return list
		}
	}
	return nil
}

// timestamp reads a google.protobuf.Timestamp (seconds = 1, nanos = 2) as
// Unix seconds and nanoseconds.
func timestamp(b pb) (int64, int64) {
	return int64(b.varint(1)), int64(b.varint(2))
}
