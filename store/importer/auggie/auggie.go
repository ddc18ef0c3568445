// Package auggie imports the sessions of Augment's Auggie CLI
// (@augmentcode/auggie): ~/.augment/sessions/<sessionId>.json, one JSON
// document per session, rewritten whole after every exchange.
//
// A session is {sessionId, created, modified, agentState{modelId},
// chatHistory[]}; each chatHistory item wraps one exchange with the Augment
// API: {exchange{request_message, request_id, request_nodes[],
// response_text, response_nodes[]}, sequenceId, finishedAt,
// isHistorySummary}. Request nodes are typed: 0 the text the person typed
// (text_node.content), 1 a tool's result (tool_result_node{tool_use_id,
// content, is_error}), 4 the workspace (ide_state_node, the cwd);
// response nodes: 0 text, 5 a tool call (tool_use{tool_use_id, tool_name,
// input_json}), 8 thinking (thinking.summary), 10 token usage. FORMATS.md,
// "Auggie", lists them with the lines of Auggie's bundle they come from.
package auggie

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Auggie sessions.
const SourceName = "auggie"

func init() { importer.Register(&Source{}, "augment", "augment-cli") }

// Source imports Auggie session files. Its zero value is ready.
type Source struct{}

// Name is "auggie".
func (*Source) Name() string { return SourceName }

// DefaultPaths is ~/.augment/sessions (Auggie's --augment-cache-dir moves
// the whole ~/.augment; name that folder to import from it).
func (*Source) DefaultPaths() []string {
	return importer.PathIf(importer.HomeDir("", filepath.Join(".augment", "sessions")))
}

// Discover finds <sessionId>.json files under the named folders (a
// ~/.augment folder, its sessions folder, or files).
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FindMatching(paths, importer.Subfolder("sessions"), nil, func(name string) bool {
		return strings.HasSuffix(name, ".json")
	})
}

// Import reads one session whole whenever it changed (Auggie rewrites the
// file; what a rewrite no longer holds stays imported).
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return importer.Report{}, fmt.Errorf("read %s: %w", file, err)
	}
	lines, err := sessionLines(raw)
	if err != nil {
		// Cut short while Auggie rewrote it, or not a session: retried next time.
		var rep importer.Report
		rep.Failed = 1
		rep.Problemf(file, 0, "%s", err.Error())
		return rep, nil
	}
	return importer.ImportWhole(ctx, st, SourceName, file, func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(lines)), nil
	}, func() importer.LineParser { return newParser(file) })
}

// sessionLines turns a session into lines: its fields without the history
// first, then one line per chatHistory item.
func sessionLines(raw []byte) ([]byte, error) {
	return importer.DocumentLines(raw, "chatHistory", "an Auggie session")
}
