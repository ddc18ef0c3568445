package analysis

import (
	"encoding/json"
	"strings"
)

// DecodeContent turns Hermes's multimodal encoding ("\x00json:" + a JSON list
// of parts) into its text parts, images and audio as "[image]"/"[audio]";
// plain strings pass through.
func DecodeContent(s string) string {
	const sentinel = "\x00json:"
	if !strings.HasPrefix(s, sentinel) {
		return s
	}
	var v any
	if err := json.Unmarshal([]byte(s[len(sentinel):]), &v); err != nil {
		return s[len(sentinel):]
	}
	var texts []string
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case string:
			texts = append(texts, t)
		case []any:
			for _, e := range t {
				walk(e)
			}
		case map[string]any:
			typ, _ := t["type"].(string)
			switch {
			case strings.Contains(typ, "image"):
				texts = append(texts, "[image]") // never a base64 payload
			case strings.Contains(typ, "audio"):
				texts = append(texts, "[audio]")
			default:
				if txt, ok := t["text"].(string); ok {
					texts = append(texts, txt)
				} else if c, ok := t["content"]; ok {
					walk(c)
				}
			}
		}
	}
	walk(v)
	if len(texts) == 0 {
		return "[multimodal content]"
	}
	return strings.Join(texts, "\n")
}
