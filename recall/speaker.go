package recall

import (
	"strings"

	"github.com/recall-dev/recall/store"
)

// The roles recall presents for a user-role row whose text the person did
// not type as a prompt (store.DisplayKind*; FORMATS.md, "display_kind").
const (
	// SystemRole is what text the agent program wrote into a user record
	// (command output, interruption markers, compaction summaries) is
	// presented as: never "user".
	SystemRole = "system"
)

// PresentedRole is the role to show or report for a row: "system" for a
// user-role row the agent program wrote (store.Message.AgentWritten),
// else the stored role. A slash command stays "user": the person ran it.
func PresentedRole(role, displayKind string) string {
	if role == "user" && (store.Message{DisplayKind: displayKind}).AgentWritten() {
		return SystemRole
	}
	return role
}

// Speaker names who wrote a message, for transcripts and summaries:
// "user command" for a slash command, "system" for text the agent program
// wrote into a user record, "compaction summary" for a compaction's
// summary, else the role.
func Speaker(m store.Message) string {
	if m.Role == "user" {
		switch m.DisplayKind {
		case store.DisplayKindCommand:
			return "user command"
		case store.DisplayKindCompaction:
			return "compaction summary"
		}
	}
	return PresentedRole(m.Role, m.DisplayKind)
}

// speakerLabel is Speaker in the upper case transcripts use ("USER COMMAND").
func speakerLabel(m store.Message) string { return strings.ToUpper(Speaker(m)) }
