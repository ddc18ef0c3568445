package store

// The messages.display_kind values recall writes (FORMATS.md, section
// "display_kind"). Hermes itself only knows "hidden"; the others mark text
// in a user-role row that the person did not type as a prompt, so that no
// title, preview, bookend, summary or matched_role presents it as theirs.
// A native reader tells them apart with WHERE display_kind IS NULL (the
// person's own words) or WHERE display_kind = 'agent', and so on.
const (
	// DisplayKindHidden rows are never shown or searched (Hermes's rule):
	// boilerplate the agent repeats in every session, such as Claude Code's
	// local-command caveat.
	DisplayKindHidden = "hidden"
	// DisplayKindCommand is a slash command (or shell escape) the person
	// ran, stored readable ("/compact focus on tests", "! git status"): the
	// person typed it, but it is an instruction to the agent program, not a
	// prompt, so it never titles or previews a session.
	DisplayKindCommand = "command"
	// DisplayKindAgent is text the agent program wrote into a user record
	// itself: command output, "[Request interrupted by user]", meta records
	// (expanded command prompts), background-task notifications.
	DisplayKindAgent = "agent"
	// DisplayKindCompaction is the summary an agent wrote of the
	// conversation before a context compaction, sent as a user message.
	DisplayKindCompaction = "compaction"
	// DisplayKindEarlier is the text a message had before its source
	// rewrote it (rewrite.go): not part of the live conversation (active =
	// 0), still searched (compacted = 1), labelled as an earlier version
	// wherever it is shown.
	DisplayKindEarlier = "earlier"
)

// Prompt reports whether m is something the person typed to the agent: a
// user-role row with no display kind.
func (m Message) Prompt() bool { return m.Role == "user" && m.DisplayKind == "" }

// AgentWritten reports whether m is a user-role row whose text the agent
// program wrote (agent, compaction or hidden display kind): never to be
// presented as the person's words.
func (m Message) AgentWritten() bool {
	switch m.DisplayKind {
	case DisplayKindAgent, DisplayKindCompaction, DisplayKindHidden:
		return true
	}
	return false
}

// ordinaryMessage is the SQL condition for rows with no display kind: the
// rows that may title, preview and bookend a session.
func (l layout) ordinaryMessage() string {
	if l.messageCols["display_kind"] {
		return "COALESCE(m.display_kind, '') = ''"
	}
	return "1"
}
