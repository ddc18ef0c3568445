// Package copilotchat imports GitHub Copilot Chat conversations of VS Code
// (and its Insiders build and VSCodium): the chat sessions VS Code keeps per
// workspace, <User>/workspaceStorage/<hash>/chatSessions/<sessionId>.json
// (whole, rewritten) or .jsonl (VS Code's append-only mutation log, since
// 2025), and those of windows without a folder in
// <User>/globalStorage/emptyWindowChatSessions/. The workspace's folder is
// named by workspace.json beside chatSessions.
//
// A session is VS Code's ISerializableChatData (src/vs/workbench/contrib/
// chat/common/chatModel.ts): requests, each the prompt, the response parts
// and the result; Copilot Chat (microsoft/vscode-copilot-chat) keeps what
// its agent did in result.metadata: the tool-call rounds (text, thinking,
// calls with their arguments) and the tools' results.
package copilotchat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Copilot Chat sessions.
const SourceName = "copilot-chat"

func init() { importer.Register(&Source{}, "vscode-copilot", "copilot-vscode", "vscode-chat") }

// Source imports VS Code's chat sessions. Its zero value is ready.
type Source struct{}

// Name is "copilot-chat".
func (*Source) Name() string { return SourceName }

// editors are the VS Code builds whose chat is Copilot Chat (Cursor and
// Windsurf have chats of their own).
var editors = []string{"Code", "Code - Insiders", "VSCodium"}

// DefaultPaths are the User folders of the VS Code builds on this machine,
// and of the VS Code servers Remote-SSH installs (~/.vscode-server/data/User),
// where a remote workspace's chats are kept.
func (*Source) DefaultPaths() []string {
	var users []string
	for _, e := range editors {
		users = append(users, importer.EditorUserDir(e))
	}
	for _, server := range []string{".vscode-server", ".vscode-server-insiders"} {
		users = append(users, importer.HomeDir("", filepath.Join(server, "data", "User")))
	}
	var out []string
	for _, u := range users {
		if u != "" && (importer.IsDir(filepath.Join(u, "workspaceStorage")) || importer.IsDir(filepath.Join(u, "globalStorage"))) {
			out = append(out, u)
		}
	}
	return out
}

// isSession reports a chat session file: a .json or .jsonl in a
// chatSessions or emptyWindowChatSessions folder.
func isSession(path string) bool {
	dir := filepath.Base(filepath.Dir(path))
	ext := filepath.Ext(path)
	return (dir == "chatSessions" || dir == "emptyWindowChatSessions") && (ext == ".json" || ext == ".jsonl")
}

// skip are the folders of a User folder that hold no chat sessions.
var skip = map[string]bool{"History": true, "snippets": true, "sync": true, "chatEditingSessions": true, "node_modules": true}

// Discover finds the chat sessions under paths (a User folder, its
// workspaceStorage, one workspace's folder, or single files). A session
// kept both ways (a .json VS Code has not converted yet beside its .jsonl)
// is read from the .jsonl.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, _ string) {
		if isSession(path) {
			found = append(found, path)
		}
	})
	have := map[string]bool{}
	for _, f := range found {
		have[f] = true
	}
	kept := found[:0]
	for _, f := range found {
		if strings.HasSuffix(f, ".json") && have[f+"l"] {
			continue
		}
		kept = append(kept, f)
	}
	return append(named, kept...), err
}

// Import brings one session up to date: any change reads it whole and
// replaces its rows (what it no longer holds is kept).
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	open := func() (io.ReadCloser, error) {
		conv, err := convert(file)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(conv)), nil
	}
	return importer.ImportWhole(ctx, st, SourceName, file, open, func() importer.LineParser { return newParser(file) })
}

// meta is the first line convert writes: the session's facts.
type meta struct {
	ID          string `json:"id"`
	Title       string `json:"title,omitempty"`
	Cwd         string `json:"cwd,omitempty"`
	Created     int64  `json:"created,omitempty"`
	LastMessage int64  `json:"last,omitempty"`
}

// convert reads a session file (.json, or a .jsonl replayed) and returns it
// as lines: {"meta": …} then {"req": request} per request.
func convert(file string) ([]byte, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	var doc map[string]any
	if strings.HasSuffix(file, ".jsonl") {
		if doc, err = replay(raw); err != nil {
			return nil, fmt.Errorf("not a VS Code chat session log: %v", err)
		}
	} else if err := decode(raw, &doc); err != nil {
		return nil, fmt.Errorf("not a VS Code chat session (a JSON object with requests): %s", importer.DecodeProblem(err))
	}
	if _, ok := doc["requests"]; !ok {
		return nil, fmt.Errorf("not a VS Code chat session: %s", importer.MissingField("the document", "requests", raw[:min(len(raw), 4096)]))
	}
	m := meta{ID: str(doc["sessionId"]), Title: str(doc["customTitle"]), Cwd: workspaceFolder(file),
		Created: num(doc["creationDate"]), LastMessage: num(doc["lastMessageDate"])}
	if m.ID == "" {
		m.ID = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".jsonl"), ".json")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]meta{"meta": m}); err != nil {
		return nil, err
	}
	reqs, _ := doc["requests"].([]any)
	for _, r := range reqs {
		if err := enc.Encode(map[string]any{"req": r}); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// workspaceFolder is the folder of the workspace a session belongs to:
// workspace.json beside chatSessions ({"folder": "file:///…"}, or a
// .code-workspace file's folder); "" for an empty window's session.
func workspaceFolder(file string) string {
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(file)), "workspace.json"))
	if err != nil {
		return ""
	}
	var ws struct {
		Folder    string `json:"folder"`
		Workspace string `json:"workspace"`
	}
	if json.Unmarshal(raw, &ws) != nil {
		return ""
	}
	if p := uriPath(ws.Folder); p != "" {
		return p
	}
	if p := uriPath(ws.Workspace); p != "" {
		return filepath.Dir(p)
	}
	return ""
}

// uriPath is the path of a file:// (or vscode-remote://) URI.
func uriPath(u string) string {
	if u == "" {
		return ""
	}
	parsed, err := url.Parse(u)
	if err != nil || parsed.Path == "" {
		return ""
	}
	return parsed.Path
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) int64 {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			f, _ := n.Float64()
			return int64(f)
		}
		return i
	case float64:
		return int64(n)
	}
	return 0
}
