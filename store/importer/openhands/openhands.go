// Package openhands imports OpenHands CLI conversations (OpenHands/OpenHands-CLI,
// written by the OpenHands software-agent SDK).
//
// A conversation is the folder
// ${OPENHANDS_CONVERSATIONS_DIR:-${OPENHANDS_PERSISTENCE_DIR:-~/.openhands}/conversations}/<id hex>/
// with base_state.json (the ConversationState: agent.llm.model,
// workspace.working_dir, stats) and events/event-<idx, 5+ digits>-<event id>.json,
// one event per file (event.model_dump_json(exclude_none=True)), each
// tagged with its class in "kind". The SDK rewrites base_state.json with
// every event it appends (leaf_event_id), so a conversation is read again
// in full when base_state.json changes. A sub-agent of the delegate tool
// is a conversation of its own in <conversation>/subagents/<id hex>/.
package openhands

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported OpenHands conversations.
const SourceName = "openhands"

func init() { importer.Register(&Source{}, "openhands-cli") }

// Source imports OpenHands conversations. Its zero value is ready.
type Source struct{}

// Name is "openhands".
func (*Source) Name() string { return SourceName }

// DefaultPaths is the CLI's conversations folder (openhands_cli/locations.py).
func (*Source) DefaultPaths() []string {
	if d := os.Getenv("OPENHANDS_CONVERSATIONS_DIR"); d != "" {
		return []string{d}
	}
	home := importer.HomeDir("OPENHANDS_PERSISTENCE_DIR", ".openhands")
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, "conversations")}
}

// skip are folders that hold no conversation of their own.
var skip = map[string]bool{"events": true, "observations": true, "workspace": true}

// Discover finds each conversation's base_state.json, a conversation
// before its sub-agents.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, name string) {
		if name == "base_state.json" {
			found = append(found, path)
		}
	})
	sort.Strings(found)
	return append(named, found...), err
}

// Group keeps a conversation with its sub-agents.
func (*Source) Group(file string) string {
	dir := filepath.Dir(file)
	for filepath.Base(filepath.Dir(dir)) == "subagents" {
		dir = filepath.Dir(filepath.Dir(dir))
	}
	return dir
}

// eventName is EVENT_NAME_RE (persistence_const.py).
var eventName = regexp.MustCompile(`^event-(\d{5,})-[0-9a-fA-F-]{8,}\.json$`)

// eventFiles lists a conversation's event files in the order of their index.
func eventFiles(dir string) []string {
	ents, _ := os.ReadDir(filepath.Join(dir, "events"))
	type ef struct {
		idx  int
		path string
	}
	var out []ef
	for _, e := range ents {
		m := eventName.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		idx, _ := strconv.Atoi(m[1])
		out = append(out, ef{idx, filepath.Join(dir, "events", e.Name())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].idx < out[j].idx })
	paths := make([]string, len(out))
	for i, e := range out {
		paths[i] = e.path
	}
	return paths
}

// Import reads one conversation again in full: its events, each made one
// line, after its base_state.json.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	dir := filepath.Dir(file)
	id := filepath.Base(dir)
	parent := ""
	if filepath.Base(filepath.Dir(dir)) == "subagents" {
		parent = filepath.Base(filepath.Dir(filepath.Dir(dir)))
	}
	var bs baseState
	if raw, err := os.ReadFile(file); err == nil {
		_ = json.Unmarshal(raw, &bs) // a state caught mid-write: the events alone
	}
	files := eventFiles(dir)
	open := func() (io.ReadCloser, error) {
		var buf bytes.Buffer
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				continue // an event file deleted since it was listed
			}
			var one bytes.Buffer
			if json.Compact(&one, raw) != nil {
				// A file being written: keep it as it is, so the parser reports it.
				one.Reset()
				one.Write(bytes.ReplaceAll(raw, []byte("\n"), []byte(" ")))
			}
			buf.Write(one.Bytes())
			buf.WriteByte('\n')
		}
		return io.NopCloser(&buf), nil
	}
	return importer.ImportWhole(ctx, st, SourceName, file, open, func() importer.LineParser {
		return newParser(id, parent, bs, files)
	})
}
