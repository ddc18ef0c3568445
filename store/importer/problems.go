package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store/importer/internal/jsonstream"
)

// DecodeProblem says in a person's terms what was wrong with a record's
// JSON: which field held what instead of what (`"text" is a number, not
// text`), or how the syntax broke, rather than the decoder's Go-typed
// sentence; at most about 100 characters.
func DecodeProblem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	var js *jsonstream.SyntaxError
	var msg string
	switch {
	case errors.As(err, &js):
		msg = "invalid JSON: " + js.Msg
	case errors.As(err, &te):
		if te.Field == "" {
			msg = fmt.Sprintf("%s, not %s", jsonKind(te.Value), goKind(te.Type))
		} else {
			msg = fmt.Sprintf("%q is %s, not %s", te.Field, jsonKind(te.Value), goKind(te.Type))
		}
	case errors.As(err, &se):
		msg = "invalid JSON: " + se.Error()
	case err != nil && err.Error() == "unexpected end of JSON input":
		msg = "invalid JSON: it ends before the record does"
	case err != nil:
		msg = err.Error()
	}
	if len(msg) > 100 {
		msg = msg[:100] + "..."
	}
	return msg
}

// MissingField is the problem of a record that lacks a field it needs:
// it names the field and lists the keys the object has, so a misspelled
// key ("contenst") shows itself.
func MissingField(what, field string, obj json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(obj, &m) != nil || len(m) == 0 {
		return fmt.Sprintf("%s has no %q", what, field)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return fmt.Sprintf("%s has no %q (its keys: %s)", what, field, strings.Join(keys, ", "))
}

// jsonKind names a JSON value kind as UnmarshalTypeError.Value gives it.
func jsonKind(v string) string {
	switch {
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "bool":
		return "true or false"
	case v == "string":
		return "text"
	}
	return v
}

// goKind names the JSON a Go type reads.
func goKind(t reflect.Type) string {
	if t == nil {
		return "what was expected"
	}
	switch t.Kind() {
	case reflect.String:
		return "text"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return t.String()
}
