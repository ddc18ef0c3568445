package claude

import (
	"path/filepath"
	"strings"
)

// Group is the main transcript a file belongs with: a sub-agent run in
// <session>/subagents/agent-<id>.jsonl goes with <session>.jsonl (which
// Discover orders first), so a newest-first import keeps them together.
func (s *Source) Group(file string) string {
	dir := filepath.Dir(file)
	if filepath.Base(dir) == "subagents" && strings.HasPrefix(filepath.Base(file), "agent-") {
		return filepath.Dir(dir) + ".jsonl"
	}
	return file
}
