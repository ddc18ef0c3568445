package copilotchat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// replay rebuilds a chat session from VS Code's append-only mutation log
// (chatSessions/<id>.jsonl; src/vs/workbench/contrib/chat/common/model/
// objectMutationLog.ts): the first line {"kind":0,"v":<the whole
// session>}, then {"kind":1,"k":<path>,"v":<value>} to set a property,
// {"kind":2,"k":<path>,"v":[items],"i":<index>} to cut an array at i (when
// given) and append items, {"kind":3,"k":<path>} to delete a property. A
// line that does not parse (a torn last write) ends the log, as VS Code's
// own reader stops there.
func replay(data []byte) (map[string]any, error) {
	var state any
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e struct {
			Kind int               `json:"kind"`
			K    []json.RawMessage `json:"k"`
			V    json.RawMessage   `json:"v"`
			I    *int              `json:"i"`
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&e); err != nil {
			if n == 0 {
				return nil, fmt.Errorf("the first line is not a log entry: %v", err)
			}
			break
		}
		n++
		path, err := keys(e.K)
		if err != nil {
			return nil, err
		}
		switch e.Kind {
		case 0:
			if err := decode(e.V, &state); err != nil {
				return nil, err
			}
		case 1:
			var v any
			if err := decode(e.V, &v); err != nil {
				return nil, err
			}
			if len(path) == 0 {
				state = v
			} else if parent := walk(state, path[:len(path)-1]); parent != nil {
				set(parent, path[len(path)-1], v)
			}
		case 2:
			var items []any
			if len(e.V) > 0 {
				if err := decode(e.V, &items); err != nil {
					return nil, err
				}
			}
			if len(path) == 0 {
				continue
			}
			parent := walk(state, path[:len(path)-1])
			if parent == nil {
				continue
			}
			arr, _ := get(parent, path[len(path)-1]).([]any)
			if e.I != nil && *e.I <= len(arr) {
				arr = arr[:*e.I]
			}
			set(parent, path[len(path)-1], append(arr, items...))
		case 3:
			if len(path) > 0 {
				if m, ok := walk(state, path[:len(path)-1]).(map[string]any); ok {
					if k, ok := path[len(path)-1].(string); ok {
						delete(m, k)
					}
				}
			}
		}
	}
	doc, ok := state.(map[string]any)
	if !ok {
		return nil, errors.New("the log holds no chat session")
	}
	return doc, nil
}

func decode(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// keys reads a path: property names and array indexes.
func keys(raw []json.RawMessage) ([]any, error) {
	out := make([]any, len(raw))
	for i, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out[i] = s
			continue
		}
		n, err := strconv.Atoi(string(bytes.TrimSpace(r)))
		if err != nil {
			return nil, fmt.Errorf("path element %s is neither a name nor an index", r)
		}
		out[i] = n
	}
	return out, nil
}

func get(container any, k any) any {
	switch c := container.(type) {
	case map[string]any:
		if s, ok := k.(string); ok {
			return c[s]
		}
	case []any:
		if i, ok := k.(int); ok && i >= 0 && i < len(c) {
			return c[i]
		}
	}
	return nil
}

func set(container any, k any, v any) {
	switch c := container.(type) {
	case map[string]any:
		if s, ok := k.(string); ok {
			c[s] = v
		}
	case []any:
		if i, ok := k.(int); ok && i >= 0 && i < len(c) {
			c[i] = v
		}
	}
}

func walk(state any, path []any) any {
	cur := state
	for _, k := range path {
		cur = get(cur, k)
		if cur == nil {
			return nil
		}
	}
	return cur
}
