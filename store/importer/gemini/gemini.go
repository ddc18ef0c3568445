// Package gemini imports Gemini CLI chat recordings:
// ~/.gemini/tmp/<project-id>/chats/session-<date>-<id8>.jsonl (since April
// 2026; older recordings are whole-file session-*.json documents) and
// sub-agent runs in chats/<parentSessionId>/<sessionId>.jsonl, which become
// child sessions of the session that started them.
//
// The JSONL form is a log to replay, not a list: a message line whose id was
// seen before replaces that message, {"$set": {...}} updates the session
// metadata (even the whole message list), and {"$rewindTo": id} deletes that
// message and everything after it. Appended lines are imported
// incrementally; a line that rewrites or rewinds a message an earlier import
// already stored re-imports the file. The <project-id> folder is a SHA-256
// of the project root or a slug registered in ~/.gemini/projects.json; the
// session's cwd is the project root either names.
package gemini

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Gemini CLI sessions.
const SourceName = "gemini-cli"

func init() { importer.Register(&Source{}, "gemini") }

// Source imports Gemini CLI recordings. Its zero value is ready.
type Source struct {
	mu       sync.Mutex
	projects map[string]map[string]string // .gemini root -> project id -> project root
}

// Name is "gemini-cli".
func (s *Source) Name() string { return SourceName }

// Root is ~/.gemini, or $GEMINI_CLI_HOME/.gemini (the variable replaces the
// parent of .gemini).
func Root() string {
	if d := os.Getenv("GEMINI_CLI_HOME"); d != "" {
		return filepath.Join(d, ".gemini")
	}
	return importer.HomeDir("", ".gemini")
}

// DefaultPaths is Root.
func (s *Source) DefaultPaths() []string {
	if r := Root(); r != "" {
		return []string{r}
	}
	return nil
}

// Discover finds recordings under paths (the .gemini folder, its tmp
// folder, a project folder, a chats folder, or single files): main sessions
// before sub-agent runs, and a legacy .json dropped when Gemini rewrote it
// as .jsonl on resume.
func (s *Source) Discover(paths []string) ([]string, error) {
	var walked, subs []string
	mains, err := importer.FindFiles(paths, importer.Subfolder("tmp"), nil, func(path, _ string) {
		switch kind(path) {
		case kindMain:
			walked = append(walked, path)
		case kindSub:
			subs = append(subs, path)
		}
	})
	if err != nil {
		return nil, err
	}
	mains = append(mains, walked...)
	have := map[string]bool{}
	for _, p := range mains {
		have[p] = true
	}
	var out []string
	for _, p := range mains {
		if strings.HasSuffix(p, ".json") && have[p+"l"] {
			continue // resumed: Gemini continued it as <name>.jsonl
		}
		out = append(out, p)
	}
	sort.Strings(out)
	sort.Strings(subs)
	return append(out, subs...), nil
}

const (
	kindNone = iota
	kindMain
	kindSub
)

// kind classifies a path: chats/session-*.json(l) is a main session,
// chats/<parent>/<id>.jsonl a sub-agent run.
func kind(path string) int {
	name := filepath.Base(path)
	dir := filepath.Dir(path)
	switch {
	case filepath.Base(dir) == "chats" && strings.HasPrefix(name, "session-") &&
		(strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".json")):
		return kindMain
	case filepath.Base(filepath.Dir(dir)) == "chats" && strings.HasSuffix(name, ".jsonl"):
		return kindSub
	}
	return kindNone
}

// Import brings one recording up to date.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	info := s.fileInfo(file)
	np := func() importer.LineParser { return newParser(info) }
	if strings.HasSuffix(file, ".json") {
		if _, err := os.Stat(file + "l"); err == nil {
			return importer.Report{Unchanged: 1}, nil // superseded by the .jsonl
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			return importer.Report{}, fmt.Errorf("read %s: %w", file, err)
		}
		conv, err := legacyLines(raw)
		if err != nil {
			// A document cut short (Gemini rewrites the whole file) or not a
			// recording at all: reported at its line, retried next time.
			var rep importer.Report
			rep.Failed = 1
			rep.Problemf(file, errorLine(raw, err), "%s", err.Error())
			return rep, nil
		}
		return importer.ImportWhole(ctx, st, SourceName, file, func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(conv)), nil
		}, np)
	}
	return importer.ImportLines(ctx, st, SourceName, file, np)
}

// fileInfo is what the path says about a recording: its project root and,
// for a sub-agent run, the parent session.
func (s *Source) fileInfo(file string) fileInfo {
	fi := fileInfo{path: file}
	chats := filepath.Dir(file)
	if kind(file) == kindSub {
		fi.parent = filepath.Base(chats)
		chats = filepath.Dir(chats)
	}
	if filepath.Base(chats) != "chats" {
		return fi
	}
	project := filepath.Dir(chats)
	fi.projectID = filepath.Base(project)
	if b, err := os.ReadFile(filepath.Join(project, ".project_root")); err == nil {
		fi.cwd = strings.TrimSpace(string(b))
	}
	fi.projects = s.projectsOf(filepath.Dir(filepath.Dir(project)))
	if fi.cwd == "" {
		fi.cwd = fi.projects[fi.projectID]
	}
	return fi
}

// projectsOf reads <root>/projects.json ({"projects": {"/abs/path": "slug"}})
// once per run, mapping both the slug and the SHA-256 of the path (the older
// project id) to the path.
func (s *Source) projectsOf(root string) map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.projects[root]; ok {
		return m
	}
	m := map[string]string{}
	if raw, err := os.ReadFile(filepath.Join(root, "projects.json")); err == nil {
		var doc struct {
			Projects map[string]string `json:"projects"`
		}
		if json.Unmarshal(stripComments(raw), &doc) == nil {
			for path, slug := range doc.Projects {
				m[ProjectHash(path)] = path
				if slug != "" {
					m[slug] = path
				}
			}
		}
	}
	if s.projects == nil {
		s.projects = map[string]map[string]string{}
	}
	s.projects[root] = m
	return m
}

// ProjectHash is Gemini CLI's getProjectHash: the SHA-256 hex of the project root.
func ProjectHash(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])
}

// legacyLines turns a whole-file ConversationRecord into the JSONL form:
// the metadata (everything but messages) on the first line, then one line
// per message.
func legacyLines(raw []byte) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, ok := doc["sessionId"]; !ok {
		return nil, errors.New("not a Gemini CLI recording (no sessionId)")
	}
	var msgs []json.RawMessage
	if m, ok := doc["messages"]; ok && string(m) != "null" {
		if err := json.Unmarshal(m, &msgs); err != nil {
			return nil, fmt.Errorf("messages is not a list: %w", err)
		}
	}
	delete(doc, "messages")
	var buf bytes.Buffer
	head, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	buf.Write(head)
	buf.WriteByte('\n')
	for _, m := range msgs {
		if err := json.Compact(&buf, m); err != nil {
			return nil, err
		}
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// errorLine is the 1-based line of a JSON syntax error in raw (the last
// line for a document cut short).
func errorLine(raw []byte, err error) int {
	off := int64(len(raw))
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	n := 1 + bytes.Count(raw[:off], []byte{'\n'})
	if off == int64(len(raw)) && off > 0 && raw[off-1] == '\n' {
		n--
	}
	return n
}

// RetentionNotice warns that Gemini CLI deletes old sessions at startup
// (general.sessionRetention in settings.json: enabled with maxAge 30d by
// default since early 2026) when its folder exists.
func (s *Source) RetentionNotice() string {
	root := Root()
	if root == "" || !importer.IsDir(root) {
		return ""
	}
	return retentionNotice(root)
}

func retentionNotice(root string) string {
	type retention struct {
		Enabled  *bool  `json:"enabled"`
		MaxAge   string `json:"maxAge"`
		MaxCount *int   `json:"maxCount"`
	}
	var cfg struct {
		General struct {
			SessionRetention *retention `json:"sessionRetention"`
		} `json:"general"`
	}
	if raw, err := os.ReadFile(filepath.Join(root, "settings.json")); err == nil {
		_ = json.Unmarshal(stripComments(raw), &cfg)
	}
	r := retention{}
	if cfg.General.SessionRetention != nil {
		r = *cfg.General.SessionRetention
	}
	if r.Enabled != nil && !*r.Enabled {
		return ""
	}
	age := r.MaxAge
	if age == "" && r.MaxCount == nil {
		age = "30d"
	}
	var rules []string
	if age != "" {
		rules = append(rules, "sessions not updated for "+age+" (general.sessionRetention.maxAge)")
	}
	if r.MaxCount != nil {
		rules = append(rules, fmt.Sprintf("all but the newest %d sessions per project (general.sessionRetention.maxCount)", *r.MaxCount))
	}
	return "Gemini CLI deletes " + strings.Join(rules, " and ") + "; sessions imported into recall stay after that."
}

// stripComments removes // and /* */ comments outside strings (Gemini's
// settings files may carry them).
func stripComments(raw []byte) []byte {
	if !bytes.Contains(raw, []byte("/")) {
		return raw
	}
	var out bytes.Buffer
	r := bufio.NewReader(bytes.NewReader(raw))
	inStr, esc := false, false
	for {
		c, err := r.ReadByte()
		if err != nil {
			return out.Bytes()
		}
		if inStr {
			out.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			out.WriteByte(c)
			continue
		}
		if c == '/' {
			next, _ := r.Peek(1)
			if len(next) == 1 && next[0] == '/' {
				for {
					c, err := r.ReadByte()
					if err != nil || c == '\n' {
						out.WriteByte('\n')
						break
					}
				}
				continue
			}
			if len(next) == 1 && next[0] == '*' {
				r.ReadByte()
				prev := byte(0)
				for {
					c, err := r.ReadByte()
					if err != nil || (prev == '*' && c == '/') {
						break
					}
					prev = c
				}
				continue
			}
		}
		out.WriteByte(c)
	}
}
