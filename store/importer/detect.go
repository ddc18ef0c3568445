package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/recall-dev/recall/store/importer/internal/lines"
)

// Format is what a file holds, as far as its first records tell: which
// importer reads it, so that a file given to the wrong one is answered with
// the command that works instead of a page of skipped records.
type Format struct {
	Source string // the importer's Name ("claude-code", "codex", "gemini-cli", "hermes", "jsonl"); "" when not recognised
	Alias  string // what to type after `recall import`
	What   string // for a person: "a Codex rollout"
}

// The formats Detect recognises.
var (
	FormatClaude = Format{Source: "claude-code", Alias: "claude", What: "a Claude Code transcript"}
	FormatCodex  = Format{Source: "codex", Alias: "codex", What: "a Codex rollout"}
	FormatGemini = Format{Source: "gemini-cli", Alias: "gemini", What: "a Gemini CLI session"}
	FormatHermes = Format{Source: "hermes", Alias: "hermes", What: "a SQLite database (a Hermes state.db)"}
	FormatJSONL  = Format{Source: "jsonl", Alias: "jsonl", What: "recall's JSONL (one message per line)"}
	// Agents read by the qwen, copilot and cline packages.
	FormatQwen    = Format{Source: "qwen-code", Alias: "qwen", What: "a Qwen Code chat recording"}
	FormatCopilot = Format{Source: "copilot-cli", Alias: "copilot", What: "a Copilot CLI events.jsonl"}
	FormatCline   = Format{Source: "cline", Alias: "cline", What: "a Cline session (messages.json)"}
)

// FormatOf is the Format an importer reads, by its Name.
func FormatOf(source string) Format {
	for _, f := range []Format{FormatClaude, FormatCodex, FormatGemini, FormatHermes, FormatJSONL, FormatQwen, FormatCopilot, FormatCline} {
		if f.Source == source {
			return f
		}
	}
	return Format{Source: source, Alias: source, What: "a " + source + " file"}
}

// Bounds of the sniffing: the records it reads, the longest line it keeps,
// the largest whole-file JSON document it parses and the bytes it reads of
// a file of lines.
const (
	detectRecords = 20
	detectLine    = 8 << 20
	detectDoc     = 64 << 20
	detectScan    = 32 << 20
)

// Detect names the format of the file at path from its first bytes and
// records; the zero Format when it cannot tell (unreadable, empty, or a
// shape no agent writes).
func Detect(path string) Format {
	f, err := os.Open(path)
	if err != nil {
		return Format{}
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(16)
	switch {
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return detectSQLite(path)
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}): // zstd: Codex compresses old rollouts
		return FormatCodex
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n"), []byte("[")):
		return detectExport(path) // a data export: its zip or its conversations.json
	}
	if doc, ok := wholeDocument(br); ok {
		return detectDocument(doc)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Format{}
	}
	votes := map[Format]int{}
	// Within detectScan bytes: a 10 GB file of zeros is one endless line.
	lr := lines.NewReader(io.LimitReader(f, detectScan), 0, 0)
	lr.SetLimit(detectLine)
	for n := 0; n < detectRecords && lr.Next(); {
		l := lr.Line()
		if l.TooLong || lines.Blank(l.Text) {
			continue
		}
		n++
		var obj map[string]json.RawMessage
		if json.Unmarshal(l.Text, &obj) != nil {
			continue
		}
		if k := detectRecord(obj); k.Source != "" {
			votes[k]++
		}
	}
	best, most, tie := Format{}, 0, false
	for k, v := range votes {
		switch {
		case v > most:
			best, most, tie = k, v, false
		case v == most:
			tie = true
		}
	}
	if tie {
		return Format{}
	}
	return best
}

// IsWholeDocument reports whether the file at path is one JSON document
// spread over several lines (an object, as Gemini CLI and old Codex write
// whole sessions) rather than JSON Lines.
func IsWholeDocument(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	_, ok := wholeDocument(bufio.NewReaderSize(f, 64<<10))
	return ok
}

// wholeDocument reads a file that is one JSON document over several lines
// (a pretty-printed object: its first line is not a whole record), within
// detectDoc bytes.
func wholeDocument(br *bufio.Reader) (map[string]json.RawMessage, bool) {
	first, err := br.Peek(64 << 10)
	if err != nil && len(first) == 0 {
		return nil, false
	}
	first = bytes.TrimLeft(first, "\xef\xbb\xbf \t\r\n")
	if len(first) == 0 || first[0] != '{' {
		return nil, false
	}
	if i := bytes.IndexByte(first, '\n'); i >= 0 && json.Valid(bytes.TrimSpace(first[:i])) {
		return nil, false // a record per line
	}
	raw, err := io.ReadAll(io.LimitReader(br, detectDoc))
	if err != nil {
		return nil, false
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(raw, &doc) != nil {
		return nil, false
	}
	return doc, true
}

// detectDocument names a whole-file JSON document.
func detectDocument(doc map[string]json.RawMessage) Format {
	switch {
	case has(doc, "sessionId") && has(doc, "messages") && has(doc, "origin"):
		return FormatCline
	case has(doc, "sessionId") && (has(doc, "messages") || has(doc, "projectHash")):
		return FormatGemini
	case has(doc, "session") && has(doc, "items"): // Codex's rollout-*.json before JSONL
		return FormatCodex
	}
	return Format{}
}

// claudeTypes are the record types of a Claude Code transcript.
var claudeTypes = map[string]bool{
	"user": true, "assistant": true, "summary": true, "system": true, "attachment": true,
	"file-history-snapshot": true, "queue-operation": true, "custom-title": true, "ai-title": true,
	"last-prompt": true, "progress": true, "agent-setting": true, "pr-link": true, "cost-state": true,
}

// geminiTypes are the message types of a Gemini CLI recording.
var geminiTypes = map[string]bool{"user": true, "gemini": true, "info": true, "error": true, "warning": true}

// detectRecord names the format one JSON Lines record belongs to.
func detectRecord(obj map[string]json.RawMessage) Format {
	var typ string
	if raw, ok := obj["type"]; ok {
		_ = json.Unmarshal(raw, &typ)
	}
	switch {
	case typ != "" && has(obj, "payload"):
		return FormatCodex // {"timestamp", "type": "session_meta"|"response_item"|..., "payload"}
	case has(obj, "provenance") && has(obj, "uuid") && has(obj, "sessionId"):
		return FormatQwen // a ChatRecord: Claude Code's shape plus provenance
	case strings.Contains(typ, ".") && has(obj, "data") && has(obj, "id"):
		return FormatCopilot // {"type": "session.start"|"user.message"|..., "data", "id", "parentId"}
	case claudeTypes[typ] && (has(obj, "sessionId") || has(obj, "uuid") || has(obj, "leafUuid") || has(obj, "parentUuid")):
		return FormatClaude
	case has(obj, "$set") || has(obj, "$rewindTo"):
		return FormatGemini
	case has(obj, "sessionId") && (has(obj, "projectHash") || has(obj, "startTime")):
		return FormatGemini
	case geminiTypes[typ] && has(obj, "id") && has(obj, "content"):
		return FormatGemini
	case has(obj, "session_id") && has(obj, "role"):
		return FormatJSONL
	}
	return Format{}
}

func has(obj map[string]json.RawMessage, key string) bool {
	_, ok := obj[key]
	return ok
}
