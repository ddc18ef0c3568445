// Package aider imports Aider's chat history: the markdown file
// .aider.chat.history.md Aider appends to in each repository it runs in
// (aider/io.py: append_chat_history).
//
// "# aider chat started at YYYY-MM-DD HH:MM:SS" starts a session; a
// "#### " line is what the person typed (one per input line, a pasted code
// block included); a "> " line is Aider's own output (tool_output,
// tool_error, confirmations), whose further lines follow without the
// prefix until a blank line; everything else is the model's answer
// (ai_output). The file is append-only, so it is read incrementally.
package aider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Aider sessions.
const SourceName = "aider"

// HistoryFile is the name Aider gives its chat history.
const HistoryFile = ".aider.chat.history.md"

func init() { importer.Register(&Source{}) }

// Source imports .aider.chat.history.md files.
type Source struct{}

// Name is "aider".
func (*Source) Name() string { return SourceName }

// DefaultPaths is empty: the history lies in each repository. `recall
// import aider DIR` walks DIR (a projects folder) for it.
func (*Source) DefaultPaths() []string { return nil }

// PathHint is what `recall import aider` needs: Aider keeps no list of
// the repositories it ran in.
func (*Source) PathHint() string {
	return "a repository, or a folder of them, holding " + HistoryFile
}

// skipDirs are folders never walked for a history file.
var skipDirs = map[string]bool{"node_modules": true, ".git": true, ".venv": true, "venv": true, "vendor": true, "target": true, "dist": true, "build": true}

// Discover finds .aider.chat.history.md files under the named folders.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FindMatching(paths, nil, skipDirs, func(name string) bool {
		return name == HistoryFile
	})
}

// Import brings one history file up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	sum := sha256.Sum256([]byte(abs))
	p := func() importer.LineParser {
		return &parser{file: hex.EncodeToString(sum[:4]), cwd: filepath.Dir(abs), state: state{}}
	}
	return importer.ImportLines(ctx, st, SourceName, file, p)
}

// block kinds.
const (
	none = iota
	user
	agent
	answer
)

// state is what the parser carries between imports.
type state struct {
	Sess    store.Session `json:"s"`
	N       int           `json:"n"`            // sessions started in the file
	Msgs    int           `json:"m"`            // messages in the current session
	Kind    int           `json:"k"`            // the block open at the end of the last import
	Open    bool          `json:"o"`            // that block was emitted and may still grow
	Pending []string      `json:"p,omitempty"`  // lines of a block not yet emitted
	Last    int           `json:"l,omitempty"`  // the number of the last line read
	Input   int           `json:"it,omitempty"` // input tokens of the session (from "Tokens:" lines)
	Output  int           `json:"ot,omitempty"`
	Cost    float64       `json:"c,omitempty"`
}

type parser struct {
	file  string // a short hash of the file's path: session ids
	cwd   string
	state state
	msgs  []store.Message
	sess  map[string]store.Session
	order []string
	kind  int
	lines []string
}

var (
	startRe  = regexp.MustCompile(`^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$`)
	modelRe  = regexp.MustCompile(`^(?:Main model|Model): (\S+)`)
	tokensRe = regexp.MustCompile(`^Tokens: ([\d.]+)([kKmM]?) sent(?:, ([\d.]+)([kKmM]?) cache write)?(?:, ([\d.]+)([kKmM]?) cache hit)?, ([\d.]+)([kKmM]?) received\.(?: Cost: \$([\d.]+) message, \$([\d.]+) session\.)?`)
)

// Restore loads the state saved by the last import.
func (p *parser) Restore(raw json.RawMessage) error {
	if err := json.Unmarshal(raw, &p.state); err != nil {
		return err
	}
	p.kind = p.state.Kind
	p.lines = p.state.Pending
	return nil
}

// Line reads one line of the history.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	// The importer passes blank lines over; they end Aider's blocks, so
	// the gap in the line numbers stands for them.
	for n := p.state.Last + 1; n < t.Line; n++ {
		if err := p.line(""); err != nil {
			return err
		}
	}
	p.state.Last = t.Line
	return p.line(strings.TrimRight(string(text), "\r\n"))
}

func (p *parser) line(line string) error {
	switch {
	case startRe.MatchString(line):
		p.flush()
		p.kind = none
		at, _ := time.ParseInLocation("2006-01-02 15:04:05", startRe.FindStringSubmatch(line)[1], time.Local)
		p.state.N++
		p.state.Sess = store.Session{ID: fmt.Sprintf("aider-%s-%s-%d", p.file, at.Format("20060102T150405"), p.state.N),
			Source: SourceName, StartedAt: at, Cwd: p.cwd}
		p.state.Msgs, p.state.Input, p.state.Output, p.state.Cost = 0, 0, 0, 0
		p.touch()
	case strings.HasPrefix(line, "#### ") || line == "####":
		if p.kind != user {
			if err := p.begin(user); err != nil {
				return err
			}
		}
		s := strings.TrimPrefix(strings.TrimPrefix(line, "####"), " ")
		p.lines = append(p.lines, strings.TrimSuffix(s, "  "))
	case strings.HasPrefix(line, "> ") || line == ">":
		// Aider's consecutive output lines make one message.
		if p.kind == agent && p.state.Open {
			return importer.ErrRestart // the output the last import stored grew
		}
		if p.kind != agent {
			if err := p.begin(agent); err != nil {
				return err
			}
		}
		p.lines = append(p.lines, strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(line, ">"), " "), "  "))
	case strings.TrimSpace(line) == "":
		if p.kind == agent || p.kind == user {
			p.flush()
			p.kind = none
		} else if p.kind == answer {
			p.lines = append(p.lines, "")
		}
	default:
		switch p.kind {
		case agent:
			if p.state.Open {
				return importer.ErrRestart
			}
			p.lines = append(p.lines, strings.TrimSuffix(line, "  ")) // an output's further lines
		case answer:
			if p.state.Open {
				return importer.ErrRestart // the answer the last import stored grew
			}
			p.lines = append(p.lines, line)
		default:
			if err := p.begin(answer); err != nil {
				return err
			}
			p.lines = append(p.lines, line)
		}
	}
	return nil
}

// begin closes the open block and opens one of kind k.
func (p *parser) begin(k int) error {
	if p.state.Open && p.kind == k {
		return importer.ErrRestart
	}
	p.flush()
	p.kind = k
	return nil
}

// flush emits the open block as a message.
func (p *parser) flush() {
	lines := p.lines
	p.lines = nil
	p.state.Open = false
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 || p.state.Sess.ID == "" {
		return
	}
	text := strings.Join(lines, "\n")
	p.state.Msgs++
	m := store.Message{SessionID: p.state.Sess.ID, Content: text, Timestamp: p.state.Sess.StartedAt,
		SourceKey: strconv.Itoa(p.state.Msgs)}
	switch p.kind {
	case user:
		m.Role = "user"
		if text == "<blank>" {
			p.state.Msgs--
			return
		}
		if strings.HasPrefix(text, "/") {
			m.DisplayKind = store.DisplayKindCommand
		}
	case agent:
		m.Role, m.DisplayKind = "user", store.DisplayKindAgent
		for _, l := range lines {
			p.meta(l)
		}
	case answer:
		m.Role = "assistant"
	default:
		p.state.Msgs--
		return
	}
	p.msgs = append(p.msgs, m)
	p.touch()
}

// meta reads the model and the token counts from Aider's own lines.
func (p *parser) meta(l string) {
	if m := modelRe.FindStringSubmatch(l); m != nil && p.state.Sess.Model == "" {
		p.state.Sess.Model = m[1]
	}
	if m := tokensRe.FindStringSubmatch(l); m != nil {
		p.state.Input += count(m[1], m[2])
		p.state.Sess.CacheWriteTokens += int64(count(m[3], m[4]))
		p.state.Sess.CacheReadTokens += int64(count(m[5], m[6]))
		p.state.Output += count(m[7], m[8])
		if m[10] != "" {
			p.state.Cost, _ = strconv.ParseFloat(m[10], 64)
		}
	}
}

// count reads Aider's "4.2k" style numbers.
func count(n, unit string) int {
	f, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return 0
	}
	switch unit {
	case "k", "K":
		f *= 1e3
	case "m", "M":
		f *= 1e6
	}
	return int(f + 0.5)
}

// touch records the current session as changed by this import.
func (p *parser) touch() {
	s := p.state.Sess
	s.InputTokens, s.OutputTokens, s.EstimatedCostUSD = int64(p.state.Input), int64(p.state.Output), p.state.Cost
	if p.sess == nil {
		p.sess = map[string]store.Session{}
	}
	if _, ok := p.sess[s.ID]; !ok {
		p.order = append(p.order, s.ID)
	}
	p.sess[s.ID] = s
}

// Result emits the blocks read, the last one included (Aider writes a
// block in one piece, so it is whole); if a later line continues it, the
// next import reads the file again (ErrRestart).
func (p *parser) Result() importer.Result {
	k := p.kind
	open := len(p.lines) > 0 && k != none
	p.flush()
	p.state.Kind, p.state.Open, p.state.Pending = k, open, nil
	var sessions []store.Session
	for _, id := range p.order {
		sessions = append(sessions, p.sess[id])
	}
	return importer.Result{Sessions: sessions, Overwrite: true, Messages: p.msgs, State: p.state}
}
