package importer_test

import (
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store/importer"
)

// TestDetectQwenCopilotCline: files the agents wrote are named as theirs
// (a Qwen record also has Claude Code's uuid/sessionId/type, a Cline
// session Gemini's sessionId/messages).
func TestDetectQwenCopilotCline(t *testing.T) {
	agents := filepath.Join("..", "..", "testdata", "agents")
	for file, want := range map[string]importer.Format{
		"qwen-code/home/.qwen/projects/-tmp-recall-drive-qwen-code-home-demo/chats/22222222-2222-4222-8222-222222222222.jsonl": importer.FormatQwen,
		"copilot-cli/home/.copilot/session-state/22222222-2222-4222-8222-222222222222/events.jsonl":                            importer.FormatCopilot,
		"cline/home/.cline/data/sessions/1796467227435_sd2dw/1796467227435_sd2dw.messages.json":                                importer.FormatCline,
	} {
		if got := importer.Detect(filepath.Join(agents, file)); got != want {
			t.Errorf("%s: %+v, want %+v", file, got, want)
		}
	}
}
