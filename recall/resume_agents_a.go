package recall

// The resume commands of Auggie, Qoder CLI, OpenClaw and Grok CLI, each
// checked against the agent's own --help or source (FORMATS.md cites them).
func init() {
	// auggie --help (0.36.0): -r, --resume [sessionId]  Resume a specific session by ID or prefix
	moreResume["auggie"] = func(id string) []string { return []string{"auggie", "--resume", id} }
	// qodercli --help (1.1.52): -r, --resume [id]  Resume a previous session by identifier; like
	// Claude Code it looks the id up in the folder of the directory it runs in.
	moreResume["qoder"] = func(id string) []string { return []string{"qodercli", "--resume", id} }
	subAgentParents["qoder"] = "Qoder CLI"
}
