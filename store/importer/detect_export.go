package importer

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path"
)

// The web chats' data exports, told apart by their first conversation.
var (
	FormatChatGPT  = Format{Source: "chatgpt", Alias: "chatgpt", What: "a ChatGPT data export"}
	FormatClaudeAI = Format{Source: "claude-ai", Alias: "claude-ai", What: "a Claude.ai data export"}
	// Google Takeout's My Activity file of Gemini Apps (MyActivity.json).
	FormatGeminiApps = Format{Source: "gemini-apps", Alias: "gemini-apps", What: "a Google Takeout Gemini Apps activity file"}
)

// detectExport names a data export (a zip holding conversations.json, or
// that JSON array) by the keys of its first conversation: ChatGPT's have a
// "mapping", Claude.ai's "chat_messages".
func detectExport(file string) Format {
	var r io.Reader
	if zr, err := zip.OpenReader(file); err == nil {
		defer zr.Close()
		for _, zf := range zr.File {
			if path.Base(zf.Name) == "conversations.json" {
				rc, err := zf.Open()
				if err != nil {
					return Format{}
				}
				defer rc.Close()
				r = rc
				break
			}
		}
	} else if f, err := os.Open(file); err == nil {
		defer f.Close()
		r = f
	}
	if r == nil {
		return Format{}
	}
	dec := json.NewDecoder(bufio.NewReader(io.LimitReader(r, detectDoc)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') || !dec.More() {
		return Format{}
	}
	var first map[string]json.RawMessage
	if dec.Decode(&first) != nil {
		return Format{}
	}
	switch {
	case has(first, "mapping"):
		return FormatChatGPT
	case has(first, "chat_messages"):
		return FormatClaudeAI
	case has(first, "header") && has(first, "products") && (string(first["header"]) == `"Gemini Apps"` || string(first["header"]) == `"Bard"`):
		return FormatGeminiApps
	}
	return Format{}
}
