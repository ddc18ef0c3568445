// Package antigravity imports Google Antigravity conversations, from the
// CLI (agy) and the IDE alike.
//
// Each app data folder (~/.gemini/antigravity-cli for agy, ~/.gemini/antigravity
// for Antigravity 2.0, ~/.gemini/antigravity-ide for the IDE) keeps a
// conversation's own stream as protobuf (conversations/<id>.db, .pb; not
// read) and, in its "brain", a plaintext log of it:
// brain/<id>/.system_generated/logs/transcript_full.jsonl, beside
// transcript.jsonl, the same log with long contents cut. One JSON object per
// step: {"step_index", "source" (USER_EXPLICIT, MODEL, SYSTEM), "type"
// (USER_INPUT, PLANNER_RESPONSE, RUN_COMMAND, VIEW_FILE, ...), "status",
// "created_at", "content", "thinking", "tool_calls": [{"name", "args"}]}.
// The full log is read when there is one, else the cut one. Titles come from
// annotations/<id>.pbtxt or cache/conversation_metadata.json, the working
// directory from history.jsonl or the caches, the parent of a sub-agent from
// the INVOKE_SUBAGENT step of the conversation that started it.
package antigravity

import (
	"context"
	"path/filepath"
	"sort"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Antigravity conversations.
const SourceName = "antigravity"

func init() { importer.Register(&Source{}, "agy", "antigravity-cli") }

// Source imports Antigravity's brain transcripts. Its zero value is ready.
type Source struct{}

// Name is "antigravity".
func (*Source) Name() string { return SourceName }

// appFolders are the app data folders under ~/.gemini: agy's, Antigravity
// 2.0's and the IDE's.
var appFolders = []string{"antigravity-cli", "antigravity", "antigravity-ide"}

// DefaultPaths are the app data folders under ~/.gemini.
func (*Source) DefaultPaths() []string {
	gemini := importer.HomeDir("", ".gemini")
	if gemini == "" {
		return nil
	}
	var out []string
	for _, f := range appFolders {
		out = append(out, filepath.Join(gemini, f))
	}
	return out
}

// The log's names: the full one is read when both are there.
const (
	fullLog = "transcript_full.jsonl"
	cutLog  = "transcript.jsonl"
)

// skip are folders of an app data folder that hold no brain transcript
// (protobuf streams, a conversation's scratch files and task logs, ...).
var skip = map[string]bool{"conversations": true, "implicit": true, "scratch": true, "tasks": true, "bin": true, "log": true,
	"crashes": true, "updater": true, "builtin": true, "plugins": true, "knowledge": true, "presence": true, "node_modules": true}

// Discover finds each conversation's transcript under paths: the full log
// where there is one, else the cut one.
func (*Source) Discover(paths []string) ([]string, error) {
	logs := map[string]string{} // conversation folder -> its log
	named, err := importer.FindFiles(paths, nil, skip, func(path, name string) {
		if (name == fullLog || name == cutLog) && conversationOf(path) != "" {
			dir := conversationOf(path)
			if logs[dir] == "" || name == fullLog {
				logs[dir] = path
			}
		}
	})
	var found []string
	for _, p := range logs {
		found = append(found, p)
	}
	sort.Strings(found)
	return append(named, found...), err
}

// conversationOf is the brain/<id> folder a transcript sits in (its
// .system_generated/logs), "" when path is not laid out so.
func conversationOf(path string) string {
	logs := filepath.Dir(path)
	gen := filepath.Dir(logs)
	conv := filepath.Dir(gen)
	if filepath.Base(logs) != "logs" || filepath.Base(gen) != ".system_generated" || filepath.Base(filepath.Dir(conv)) != "brain" {
		return ""
	}
	return conv
}

// Import brings one conversation's transcript up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	conv := conversationOf(file)
	id, root := filepath.Base(conv), filepath.Dir(filepath.Dir(conv))
	if conv == "" {
		// A transcript named on its own, out of its brain: its folder's
		// name is the best id there is, and there are no caches beside it.
		id, root = textutil.IDFromName(filepath.Dir(file)), ""
	}
	m := readMeta(root, id)
	sess := store.Session{ID: id, Source: SourceName, Title: textutil.Title(m.title), Cwd: m.cwd}
	if parent := parentOf(root, id); parent != "" {
		sess.ParentID, sess.ModelConfig = parent, textutil.DelegatedFrom(parent)
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return &parser{sess: sess, file: file}
	})
}
