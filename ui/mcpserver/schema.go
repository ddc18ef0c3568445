package mcpserver

import (
	"fmt"

	"github.com/recall-dev/recall/recall/sessionsearch"
)

// toolDescription is what the model reads to decide when and how to call
// the tool: the four shapes with an example each, the query syntax, and
// what the budget does. It follows Hermes's description (spec §7.1).
func toolDescription(maxChars int) string {
	return fmt.Sprintf(`Search the user's past conversations with their AI agents (every session recall has imported: Claude Code, Codex CLI, Gemini CLI, Hermes, ...), or read inside one. Local full-text search (SQLite FTS5): milliseconds, no network, no LLM unless summarize is true.

FOUR CALLING SHAPES (the arguments you pass pick one):
1. DISCOVER - query="docker network error": the sessions that best match (one per lineage, best first). Each result has the matching message (anchor: true in messages, its id in match_message_id), up to 5 messages either side, the session's first and last messages (bookend_start, bookend_end) and an offline summary. Start here.
2. SCROLL - session_id="<from a result>", around_message_id=<match_message_id or any messages[].id>, window=5 (1-20): the messages around that message. Page forward by scrolling again around the last id shown, back around the first.
3. READ - session_id alone: the session's first 20 and last 10 messages; scroll to see the middle.
4. BROWSE - no query and no session_id: the most recent sessions (title, source, time, first message).

QUERY: write the key words ("docker postgres connection refused") or simply the question ("how did we fix the docker networking error?"). Question words and stopwords are ignored, inflections match (painted = paint), any word may match and sessions holding more of the words (and holding them in title or first prompt) rank first; each result says which words it matched (matched_words, of words). A date ("in May 2023", "last week", "yesterday", "2023") ranks sessions of that time first (date_filter); a word that matches nothing is retried as its nearest indexed spelling (suggestion). No need for OR. Explicit FTS5 syntax keeps its exact meaning: "exact phrase", AND, OR, NOT or -word, NEAR(a b), prefix*. Chinese, Japanese and Korean work, including one- and two-character terms (数据库, 改). Half-typed or odd syntax is repaired, never an error.

WHEN TO USE: the user refers to earlier work ("how did we fix...", "last time", "the migration we did"), or a command, path, decision or error from a past session would help. Check the repository and files first: session history may be incomplete, so no result does not prove something never happened.

BUDGET: every answer fits max_chars (default %d characters). When something was trimmed, budget.truncated is true, trimmed results say truncated, clipped text ends in "…[+N chars]", and budget.hint says how to get the rest (scroll with around_message_id, or raise max_chars).`, maxChars)
}

// inputSchema is the tool's parameters. It stays plain (types, enums,
// defaults, no anyOf): Gemini CLI strips what its API does not accept, and
// every client shows descriptions to the model as written.
func inputSchema(maxChars int) map[string]any {
	prop := func(typ, desc string, extra ...any) map[string]any {
		p := map[string]any{"type": typ, "description": desc}
		for i := 0; i+1 < len(extra); i += 2 {
			p[extra[i].(string)] = extra[i+1]
		}
		return p
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query": prop("string", `DISCOVER: what to look for, as key words or the question itself, e.g. "docker network error" or "when did we move the api to postgres 16?". Any of the words may match; sessions holding more of them rank first. FTS5 syntax ("phrase", AND, OR, NOT, prefix*) keeps its exact meaning; CJK works. Leave empty (with no session_id) to BROWSE recent sessions.`),
			"limit": prop("integer", fmt.Sprintf("DISCOVER and BROWSE: how many sessions to return (default %d, at most %d).", sessionsearch.DefaultLimit, sessionsearch.MaxLimit),
				"minimum", 1, "maximum", sessionsearch.MaxLimit, "default", sessionsearch.DefaultLimit),
			"sort": prop("string", "DISCOVER: order by time instead of relevance: newest (what we did most recently) or oldest (when it first came up). Omit for best match first.",
				"enum", []string{"newest", "oldest"}),
			"role_filter": prop("string", `DISCOVER: comma-separated roles to search (default "user,assistant"; add "tool" to search tool output such as logs and command results). Roles: user, assistant, tool, system.`),
			"session_id":  prop("string", "SCROLL or READ: the session_id of a result (a unique prefix is enough). With around_message_id it scrolls; alone it reads the session's head and tail."),
			"around_message_id": prop("integer", "SCROLL: the message to center on, a result's match_message_id or any messages[].id. Needs session_id.",
				"minimum", 1),
			"window": prop("integer", fmt.Sprintf("SCROLL: messages to show either side of around_message_id (default %d, 1 to %d).", sessionsearch.DefaultWindow, sessionsearch.MaxWindow),
				"minimum", 1, "maximum", sessionsearch.MaxWindow, "default", sessionsearch.DefaultWindow),
			"current_session_id": prop("string", "Your own current session's id, if you know it: it and its whole lineage (parents, children) are left out, since they are already in your context."),
			"max_chars": prop("integer", fmt.Sprintf("Answer budget in characters (default %d, %d to %d). Raise it to read long messages whole.", maxChars, sessionsearch.MinMaxChars, sessionsearch.MaxMaxChars),
				"minimum", sessionsearch.MinMaxChars, "maximum", sessionsearch.MaxMaxChars, "default", maxChars),
			"summarize": prop("boolean", "DISCOVER: also summarize each session with the user's configured model (slower: seconds, bounded by a timeout). Default false: an offline extractive summary (commands, paths, errors, conclusion) at no cost.",
				"default", false),
		},
		"required": []string{},
	}
}
