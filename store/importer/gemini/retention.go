package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// RetentionAge is how long Gemini CLI keeps a session not updated
// (general.sessionRetention.maxAge in settings.json: "30d" when retention
// is on without an age; off when enabled is false or only maxCount is set)
// (importer.RetentionAger).
func (s *Source) RetentionAge() (time.Duration, bool) {
	root := Root()
	if root == "" {
		return 0, false
	}
	var cfg struct {
		General struct {
			SessionRetention *struct {
				Enabled  *bool  `json:"enabled"`
				MaxAge   string `json:"maxAge"`
				MaxCount *int   `json:"maxCount"`
			} `json:"sessionRetention"`
		} `json:"general"`
	}
	if raw, err := os.ReadFile(filepath.Join(root, "settings.json")); err == nil {
		_ = json.Unmarshal(stripComments(raw), &cfg)
	}
	age := "30d"
	if r := cfg.General.SessionRetention; r != nil {
		if r.Enabled != nil && !*r.Enabled {
			return 0, false
		}
		switch {
		case r.MaxAge != "":
			age = r.MaxAge
		case r.MaxCount != nil:
			return 0, false
		}
	}
	return parseAge(age)
}

// parseAge reads Gemini's durations: a number and h, d, w or m (months of 30 days).
func parseAge(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n <= 0 {
		return 0, false
	}
	unit := map[byte]time.Duration{'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour, 'm': 30 * 24 * time.Hour}[s[len(s)-1]]
	if unit == 0 {
		return 0, false
	}
	return time.Duration(n) * unit, true
}
