package recall

// The resume commands of the sources added with issue 33's second group
// (Kimi Code, Mistral Vibe, OpenHands, Grok Build, Antigravity, Kiro,
// Amazon Q, Junie), each checked against the agent's --help or source; kept
// in a file of their own so that sources added in parallel never edit the
// same lines.
func init() {
	// kimi --help (2.1.0): -S, --session [id]  Resume a session. With ID: resume that session.
	moreResume["kimi-code"] = func(id string) []string { return []string{"kimi", "--session", id} }
	subAgentParents["kimi-code"] = "Kimi Code"
	// vibe --help: --resume [SESSION_ID]  Resume a session (vibe/cli/entrypoint.py); found by id in any directory.
	// A task sub-agent's session lives inside its parent's folder, where --resume does not look.
	moreResume["mistral-vibe"] = func(id string) []string { return []string{"vibe", "--resume", id} }
	subAgentParents["mistral-vibe"] = "Mistral Vibe"
	// openhands --help: --resume [RESUME]  Conversation ID to resume (openhands_cli/argparsers/util.py).
	moreResume["openhands"] = func(id string) []string { return []string{"openhands", "--resume", id} }
	subAgentParents["openhands"] = "OpenHands"
	// grok --help: -r, --resume [SESSION_ID_OR_TITLE] (crates/codegen/xai-grok-pager/src/app/cli.rs).
	moreResume["grok-build"] = func(id string) []string { return []string{"grok", "--resume", id} }
	subAgentParents["grok-build"] = "Grok Build"
	// q chat -r/--resume: "Resumes the previous conversation from this directory"
	// (crates/chat-cli/src/cli/chat/mod.rs ChatArgs): Amazon Q keeps one
	// conversation per directory, so it runs in the session's directory.
	moreResume["amazon-q"] = func(string) []string { return []string{"q", "chat", "--resume"} }
	// kiro-cli chat --resume-id ID resumes any conversation from any directory
	// (kirodotdev/Kiro issue 9066, kiro-cli 2.5.1; Kiro CLI is closed source).
	moreResume["kiro"] = func(id string) []string { return []string{"kiro-cli", "chat", "--resume-id", id} }
	subAgentParents["kiro"] = "Kiro"
	// agy --help (1.1.22): --conversation <id>  resume a specific conversation by UUID
	// (-c/--continue takes the directory's latest). An Antigravity IDE
	// conversation opens in the IDE; agy resumes those of its own app folder.
	moreResume["antigravity"] = func(id string) []string { return []string{"agy", "--conversation", id} }
	subAgentParents["antigravity"] = "Antigravity"
	// Junie is closed source and documents no command that resumes one
	// session by id: recall says so rather than guess one.
	moreResume["junie"] = nil
}
