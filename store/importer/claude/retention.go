package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// RetentionAge is how old a transcript gets before Claude Code deletes it:
// cleanupPeriodDays in settings.json, 30 days when unset (importer.RetentionAger).
func (s *Source) RetentionAge() (time.Duration, bool) {
	if s.name != "" {
		return 0, false // Qoder's cleanup is not documented
	}
	root := Root()
	if root == "" {
		return 0, false
	}
	days := 30
	if raw, err := os.ReadFile(filepath.Join(root, "settings.json")); err == nil {
		var cfg struct {
			CleanupPeriodDays *int `json:"cleanupPeriodDays"`
		}
		if json.Unmarshal(raw, &cfg) == nil && cfg.CleanupPeriodDays != nil {
			days = *cfg.CleanupPeriodDays
		}
	}
	if days <= 0 {
		return 0, false
	}
	return time.Duration(days) * 24 * time.Hour, true
}
