package antigravity

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// meta is what the app data folder says of a conversation outside its log.
type meta struct {
	title, cwd string
}

// readMeta reads a conversation's title and working directory: the title
// from annotations/<id>.pbtxt (title:"…", agy 1.1.21 and later), else
// cache/conversation_metadata.json; the directory from the prompts'
// history.jsonl rows (agy), else the metadata's workspace URIs (the IDE),
// else cache/last_conversations.json (agy's latest conversation per
// directory).
func readMeta(root, id string) meta {
	if root == "" {
		return meta{}
	}
	var m meta
	if raw, err := os.ReadFile(filepath.Join(root, "annotations", id+".pbtxt")); err == nil {
		m.title = pbtxtTitle(raw)
	}
	summary := metadataCache.get(filepath.Join(root, "cache", "conversation_metadata.json"), readMetadata)[id]
	if m.title == "" {
		m.title = summary.Title
	}
	m.cwd = historyCache.get(filepath.Join(root, "history.jsonl"), readHistory)[id]
	for _, u := range summary.WorkspaceURIs {
		if m.cwd == "" {
			m.cwd = fileURIPath(u)
		}
	}
	if m.cwd == "" {
		m.cwd = lastCache.get(filepath.Join(root, "cache", "last_conversations.json"), readLast)[id]
	}
	return m
}

// pbtxtTitle is the title field of a protobuf text annotation.
func pbtxtTitle(raw []byte) string {
	for _, line := range strings.Split(string(raw), "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "title:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			v = `"` + strings.ReplaceAll(v[1:len(v)-1], `"`, `\"`) + `"`
		}
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
		return strings.Trim(v, `"'`)
	}
	return ""
}

// summary is a conversation's entry in cache/conversation_metadata.json.
type summary struct {
	Title         string   `json:"Title"`
	WorkspaceURIs []string `json:"WorkspaceURIs"`
}

func readMetadata(raw []byte) map[string]summary {
	var doc struct {
		Conversations map[string]struct {
			Summary summary `json:"summary"`
		} `json:"conversations"`
	}
	out := map[string]summary{}
	if json.Unmarshal(raw, &doc) == nil {
		for id, c := range doc.Conversations {
			out[id] = c.Summary
		}
	}
	return out
}

// readHistory maps each conversation to the workspace of its first prompt
// in history.jsonl ({display, timestamp, workspace, conversationId} a line).
func readHistory(raw []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var row struct {
			Workspace string `json:"workspace"`
			ID        string `json:"conversationId"`
		}
		if json.Unmarshal(sc.Bytes(), &row) == nil && row.ID != "" && row.Workspace != "" && out[row.ID] == "" {
			out[row.ID] = row.Workspace
		}
	}
	return out
}

// readLast inverts last_conversations.json ({directory: conversation id}).
func readLast(raw []byte) map[string]string {
	var byDir map[string]string
	out := map[string]string{}
	if json.Unmarshal(raw, &byDir) == nil {
		for dir, id := range byDir {
			if dir != "" && id != "" {
				out[id] = dir
			}
		}
	}
	return out
}

// fileURIPath is the path of a file:// URI, "" for another.
func fileURIPath(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "file" || p.Path == "" {
		return ""
	}
	if len(p.Path) > 2 && p.Path[0] == '/' && p.Path[2] == ':' {
		return filepath.FromSlash(p.Path[1:]) // file:///c:/Users/… on Windows
	}
	return p.Path
}

// fileCache keeps a parsed file until its size or mtime changes: an import
// of every conversation reads each cache file once.
type fileCache[T any] struct {
	mu      sync.Mutex
	entries map[string]cacheEntry[T]
}

type cacheEntry[T any] struct {
	size int64
	mod  time.Time
	val  T
}

var (
	metadataCache fileCache[map[string]summary]
	historyCache  fileCache[map[string]string]
	lastCache     fileCache[map[string]string]
)

// get is path's parsed contents, the zero T when it cannot be read.
func (c *fileCache[T]) get(path string, parse func([]byte) T) T {
	var zero T
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return zero
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[path]; ok && e.size == fi.Size() && e.mod.Equal(fi.ModTime()) {
		return e.val
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return zero
	}
	if c.entries == nil {
		c.entries = map[string]cacheEntry[T]{}
	}
	v := parse(raw)
	c.entries[path] = cacheEntry[T]{size: fi.Size(), mod: fi.ModTime(), val: v}
	return v
}

// invoked finds the conversation ids an INVOKE_SUBAGENT step names
// ("Created the following subagents:\n{\"conversationId\": \"…\"}").
var invoked = regexp.MustCompile(`"conversationId"\s*:\s*"([0-9A-Fa-f-]{36})"`)

// spawns is what one transcript says of the sub-agents it started, up to
// the offset it was read to (transcripts only grow: the rest is read later).
type spawns struct {
	size     int64
	mod      time.Time
	offset   int64
	children []string
}

// parents scans a brain's transcripts for the sub-agents they started.
type parents struct {
	mu    sync.Mutex
	files map[string]*spawns
}

var brainParents = map[string]*parents{}
var brainMu sync.Mutex

// parentOf is the conversation whose INVOKE_SUBAGENT step started id, ""
// when none under root did.
func parentOf(root, id string) string {
	if root == "" {
		return ""
	}
	brainMu.Lock()
	p := brainParents[root]
	if p == nil {
		p = &parents{files: map[string]*spawns{}}
		brainParents[root] = p
	}
	brainMu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	var found string
	id = strings.ToLower(id)
	convs, _ := filepath.Glob(filepath.Join(root, "brain", "*"))
	for _, conv := range convs {
		parent := filepath.Base(conv)
		if strings.ToLower(parent) == id {
			continue
		}
		for _, name := range []string{fullLog, cutLog} {
			path := filepath.Join(conv, ".system_generated", "logs", name)
			s := p.scan(path)
			for _, c := range s {
				if c == id && found == "" {
					found = parent
				}
			}
			if len(s) > 0 || fileExists(path) {
				break // the full log, when there is one, speaks for the conversation
			}
		}
	}
	return found
}

// scan brings path's entry up to date and returns the children it names.
func (p *parents) scan(path string) []string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		delete(p.files, path)
		return nil
	}
	s := p.files[path]
	if s != nil && s.size == fi.Size() && s.mod.Equal(fi.ModTime()) {
		return s.children
	}
	if s == nil || fi.Size() < s.offset {
		s = &spawns{} // new, or rewritten shorter: read again
	}
	f, err := os.Open(path)
	if err != nil {
		return s.children
	}
	defer f.Close()
	if _, err := f.Seek(s.offset, io.SeekStart); err != nil {
		return s.children
	}
	br := bufio.NewReaderSize(f, 64<<10)
	off := s.offset
	for {
		line, err := br.ReadBytes('\n')
		if err != nil {
			break // a last line without its newline is read when it is whole
		}
		off += int64(len(line))
		if !bytes.Contains(line, []byte("INVOKE_SUBAGENT")) {
			continue
		}
		var st struct {
			Type    string `json:"type"`
			Content string `json:"content"`
		}
		if json.Unmarshal(line, &st) != nil || st.Type != "INVOKE_SUBAGENT" {
			continue
		}
		for _, m := range invoked.FindAllStringSubmatch(st.Content, -1) {
			s.children = append(s.children, strings.ToLower(m[1]))
		}
	}
	s.offset, s.size, s.mod = off, fi.Size(), fi.ModTime()
	p.files[path] = s
	return s.children
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
