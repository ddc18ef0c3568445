// Command mkdemo writes the synthetic part of the embedded demo history
// (assets/demo/50-synthetic.jsonl) from the store/synth generator: run it
// with `go generate ./assets` after changing the generator.
//
// It searches seeds in order for the first corpus that shows what the demo
// is for: about 40 sessions, a three-level delegation chain, a session of
// 150+ messages, and English, Chinese, Japanese and Korean text, so the file
// is reproducible and its choice explained.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/recall-dev/recall/store/synth"
)

const (
	messages = 1100
	span     = 75 * 24 * time.Hour
)

// line is one message in recall's generic JSONL import format.
type line struct {
	SessionID    string          `json:"session_id"`
	Source       string          `json:"source,omitempty"`
	Model        string          `json:"model,omitempty"`
	Title        string          `json:"title,omitempty"`
	Parent       string          `json:"parent_session_id,omitempty"`
	Role         string          `json:"role"`
	Content      string          `json:"content"`
	Timestamp    string          `json:"timestamp"`
	ToolName     string          `json:"tool_name,omitempty"`
	ToolCalls    json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID   string          `json:"tool_call_id,omitempty"`
	TokenCount   int             `json:"token_count,omitempty"`
	FinishReason string          `json:"finish_reason,omitempty"`
}

func main() {
	out := "demo/50-synthetic.jsonl"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	for seed := uint64(1); seed < 10_000; seed++ {
		ss := corpus(seed)
		if why := unsuitable(ss); why != "" {
			continue
		}
		if err := write(out, ss); err != nil {
			fmt.Fprintln(os.Stderr, "mkdemo:", err)
			os.Exit(1)
		}
		fmt.Printf("mkdemo: seed %d, %d sessions -> %s\n", seed, len(ss), out)
		return
	}
	fmt.Fprintln(os.Stderr, "mkdemo: no seed below 10000 gives a suitable demo")
	os.Exit(1)
}

func corpus(seed uint64) []synth.Session {
	g := synth.New(synth.Options{Messages: messages, Seed: seed, Span: span})
	var ss []synth.Session
	for {
		s, ok := g.Next()
		if !ok {
			return ss
		}
		ss = append(ss, s)
	}
}

// unsuitable says what the corpus lacks, or "".
func unsuitable(ss []synth.Session) string {
	if len(ss) < 36 || len(ss) > 48 {
		return "session count"
	}
	parent := map[string]string{}
	longest := 0
	var text strings.Builder
	for _, s := range ss {
		parent[s.Session.ID] = s.Session.ParentID
		longest = max(longest, len(s.Messages))
		for _, m := range s.Messages {
			text.WriteString(m.Content)
		}
	}
	deep := false
	for id := range parent {
		if p := parent[id]; p != "" && parent[p] != "" {
			deep = true
		}
	}
	all := text.String()
	switch {
	case !deep:
		return "no three-level chain"
	case longest < 150:
		return "no long session"
	case !strings.Contains(all, "ます") || !strings.Contains(all, "니다"):
		return "no Japanese or Korean"
	case !strings.Contains(all, "docker network") || !strings.Contains(all, "数据库") || !strings.Contains(all, "migration"):
		return "missing a showcase topic"
	}
	return ""
}

func write(path string, ss []synth.Session) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, s := range ss {
		for i, m := range s.Messages {
			l := line{SessionID: s.Session.ID, Role: m.Role, Content: m.Content,
				Timestamp: m.Timestamp.UTC().Format(time.RFC3339), ToolName: m.ToolName, ToolCallID: m.ToolCallID,
				TokenCount: m.TokenCount, FinishReason: m.FinishReason}
			if m.ToolCalls != "" {
				l.ToolCalls = json.RawMessage(m.ToolCalls)
			}
			if i == 0 {
				l.Source, l.Model, l.Title, l.Parent = s.Session.Source, s.Session.Model, s.Session.Title, s.Session.ParentID
			}
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
