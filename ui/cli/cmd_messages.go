package cli

import (
	"fmt"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

type hitJSON struct {
	ID             int64   `json:"id"`
	SessionID      string  `json:"session_id"`
	ShortID        string  `json:"short_id,omitempty"` // the id shown to people (sessionJSON.ShortID)
	Role           string  `json:"role"`
	DisplayKind    string  `json:"display_kind,omitempty"`
	Snippet        string  `json:"snippet"`
	Timestamp      string  `json:"timestamp"`
	ToolName       string  `json:"tool_name,omitempty"`
	Source         string  `json:"source"`
	Model          string  `json:"model"`
	Title          string  `json:"title,omitempty"`
	SessionStarted string  `json:"session_started"`
	Rank           float64 `json:"rank"`
	Index          string  `json:"index"`
}

func runMessages(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	role := fs.String("role", "", "only these `R,..` roles (comma-separated: user,assistant,tool,system)")
	exclude := fs.String("exclude-source", "", "skip sessions from these `S,..` sources (comma-separated)")
	source := fs.String("source", "", "only sessions from these `S,..` sources (comma-separated)")
	machine := fs.String("machine", "", "only sessions from these `M,..` machines (a synced host's name; local for this machine's)")
	limit := fs.Int("limit", 20, "number of hits (1..1000)")
	offset := fs.Int("offset", 0, "skip this many hits")
	newest := fs.Bool("newest", false, "newest first instead of bm25 rank")
	asJSON := fs.Bool("json", false, "print JSON")
	showSecrets := fs.Bool("show-secrets", false, "keep API keys, tokens and passwords in snippets and titles (by default each is replaced by [REDACTED:rule])")
	words, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	query := strings.Join(words, " ")
	if strings.TrimSpace(query) == "" {
		return usageError("a QUERY is required (see 'recall messages -h')")
	}
	if *limit < 1 || *limit > 1000 {
		return usageError("--limit must be between 1 and 1000, got %d", *limit)
	}
	if *offset < 0 {
		return usageError("--offset must not be negative, got %d", *offset)
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	f := store.SearchFilter{Roles: splitList(*role), ShownRoles: true, ExcludeSources: splitList(*exclude), Sources: splitList(*source),
		Machines: splitList(*machine), Limit: *limit, Offset: *offset}
	if *newest {
		f.Phase = store.PhaseFirst
	}
	res, err := secrets.ReaderFor(st, *showSecrets).SearchMessages(env.Ctx, query, f)
	if err != nil {
		return err
	}
	if res.Notice != "" {
		fmt.Fprintln(env.Stderr, "recall messages: note: "+res.Notice)
	}
	ids := make([]string, len(res.Hits))
	for i, h := range res.Hits {
		ids[i] = h.SessionID
	}
	short := shortIDsOf(env, st, ids)
	if *asJSON {
		out := make([]hitJSON, 0, len(res.Hits))
		for _, h := range res.Hits {
			out = append(out, hitJSON{ID: h.MessageID, SessionID: h.SessionID, ShortID: short.of(h.SessionID), Role: recall.PresentedRole(h.Role, h.DisplayKind), DisplayKind: h.DisplayKind, Snippet: snippetText(h.Snippet, false),
				Timestamp: isoTime(h.Timestamp), ToolName: h.ToolName, Source: h.Source, Model: h.Model, Title: h.SessionTitle,
				SessionStarted: isoTime(h.SessionStarted), Rank: h.Rank, Index: string(h.Index)})
		}
		return printJSON(env.Stdout, out)
	}
	// Columns as wide as their widest value on this page (a tool role such
	// as tool:terminal included), capped so the title keeps some room;
	// measured in display cells.
	width := env.termWidth()
	roles := make([]string, len(res.Hits))
	roleW, sourceW := 4, 6
	for i, h := range res.Hits {
		role := field(recall.PresentedRole(h.Role, h.DisplayKind))
		if h.DisplayKind == store.DisplayKindCommand {
			role = "command"
		}
		if h.ToolName != "" {
			role += ":" + field(h.ToolName)
		}
		roles[i] = role
		roleW, sourceW = max(roleW, termtext.Width(role)), max(sourceW, termtext.Width(field(h.Source)))
	}
	roleW, sourceW = min(roleW, 24), min(sourceW, 16)
	for i, h := range res.Hits {
		// The session's short id before its title, which is cut first:
		// `recall show` takes the id as printed.
		head := fmt.Sprintf("%s  %s %s %s", humanTime(h.Timestamp), termtext.PadRight(termtext.Truncate(roles[i], roleW), roleW),
			termtext.PadRight(termtext.Truncate(field(h.Source), sourceW), sourceW), short.shown(h.SessionID))
		if title := field(h.SessionTitle); title != "" {
			head += "  " + title
		}
		// The snippet is cut around its hit: a long message shows the
		// window where the query matched, not its start.
		fmt.Fprintf(env.Stdout, "%s\n    %s\n", fitLine(head, width),
			fitSnippet(recall.ReadableSnippet(h.Snippet), width-4, env.StdoutIsTerminal))
	}
	noun := "hits"
	if len(res.Hits) == 1 {
		noun = "hit"
	}
	fmt.Fprintf(env.Stderr, "%d %s · index %s · %.1f ms\n", len(res.Hits), noun, res.Index, float64(res.Elapsed.Microseconds())/1000)
	return nil
}
