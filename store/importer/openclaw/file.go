package openclaw

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
	"github.com/recall-dev/recall/store/importer/pi"
)

// fileParser reads one transcript file (the JSONL era) with Pi's parser
// and adds what sessions.json beside it says of the session.
type fileParser struct {
	importer.LineParser
	file string
}

func newFileParser(file string) *fileParser {
	return &fileParser{LineParser: pi.NewParser(SourceName, file), file: file}
}

// Version is Pi's parser version and this source's own (importer.Versioned).
func (p *fileParser) Version() int {
	v := 0
	if pv, ok := p.LineParser.(importer.Versioned); ok {
		v = pv.Version()
	}
	return v*100 + parserVersion
}

// Result is Pi's, with the session's label, model and parent from
// sessions.json.
func (p *fileParser) Result() importer.Result {
	res := p.LineParser.Result()
	if len(res.Sessions) == 0 {
		return res
	}
	entries := readIndex(filepath.Join(filepath.Dir(p.file), "sessions.json"))
	s := &res.Sessions[0]
	e, ok := entries.byID[s.ID]
	if !ok {
		return res
	}
	if s.Title == "" {
		s.Title = textutil.Title(cmp.Or(e.DisplayName, e.Label, e.Subject))
	}
	if s.Model == "" {
		s.Model = e.Model
	}
	parent := entries.byKey[e.SpawnedBy].SessionID
	if parent == s.ID || s.ParentID != "" {
		parent = ""
	}
	setConfig(s, entries.keyOf[s.ID], "_delegate_from", parent)
	return res
}

// indexEntry is the part of a sessions.json entry recall reads.
type indexEntry struct {
	SessionID   string `json:"sessionId"`
	Label       string `json:"label"`
	DisplayName string `json:"displayName"`
	Subject     string `json:"subject"`
	SpawnedBy   string `json:"spawnedBy"`
	Model       string `json:"model"`
}

type index struct {
	byKey map[string]indexEntry
	byID  map[string]indexEntry
	keyOf map[string]string // session id -> session key
}

// readIndex reads sessions.json (session key -> entry); a missing or
// broken one only costs the sessions their labels and parents.
func readIndex(path string) index {
	ix := index{byKey: map[string]indexEntry{}, byID: map[string]indexEntry{}, keyOf: map[string]string{}}
	raw, err := os.ReadFile(path)
	if err != nil {
		return ix
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ix
	}
	for k, v := range m {
		var e indexEntry
		if json.Unmarshal(v, &e) != nil || e.SessionID == "" {
			continue
		}
		ix.byKey[k] = e
		ix.byID[e.SessionID] = e
		ix.keyOf[e.SessionID] = k
	}
	return ix
}
