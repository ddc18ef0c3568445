package recall

import (
	"encoding/json"

	"github.com/recall-dev/recall/store"
)

// sessionResume holds the sources whose resume command is built from more
// of the session than its id; nil when there is none for this session.
var sessionResume = map[string]func(s store.Session) []string{
	// openclaw tui --help (2026.9.6): --session <key>  Session key; --local  Run against the local
	// embedded agent runtime. The key (agent:<agentId>:<rest>) is kept in the session's model_config.
	"openclaw": func(s store.Session) []string {
		var cfg struct {
			Key string `json:"session_key"`
		}
		if json.Unmarshal([]byte(s.ModelConfig), &cfg) != nil || cfg.Key == "" {
			return nil
		}
		return []string{"openclaw", "tui", "--local", "--session", cfg.Key}
	},
}

// The resume commands of Auggie, Qoder CLI and Grok CLI, each
// checked against the agent's own --help or source (FORMATS.md cites them).
func init() {
	// auggie --help (0.36.0): -r, --resume [sessionId]  Resume a specific session by ID or prefix
	moreResume["auggie"] = func(id string) []string { return []string{"auggie", "--resume", id} }
	// qodercli --help (1.1.52): -r, --resume [id]  Resume a previous session by identifier; like
	// Claude Code it looks the id up in the folder of the directory it runs in.
	moreResume["qoder"] = func(id string) []string { return []string{"qodercli", "--resume", id} }
	subAgentParents["qoder"] = "Qoder CLI"
	// grok-dev src/index.ts: -s, --session <id>  Continue a saved session by id, or use 'latest'
	moreResume["grok-cli"] = func(id string) []string { return []string{"grok", "--session", id} }
}
