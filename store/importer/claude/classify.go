package claude

// Classify is how Claude Code's user texts are told apart (classify): the
// text to store, its display kind, and whether anything remains to store.
// meta marks a record the agent flagged as its own. It is exported for the
// agents that copy Claude Code's conventions into their user messages
// (CodeBuddy Code writes the same <command-name> wrappers and caveats).
func Classify(text string, meta bool) (content, kind string, keep bool) {
	return classify(text, meta, false)
}
