package termtext

import (
	"testing"
	"time"
)

func TestOneLineAndClip(t *testing.T) {
	tests := map[string]struct {
		in   string
		n    int
		want string
	}{
		"collapse":       {"a\n\n b\tc  ", 10, "a b c"},
		"clip":           {"abcdef", 3, "abc…"},
		"exact":          {"abc", 3, "abc"},
		"clip wide":      {"数据库迁移", 2, "数据…"},
		"escape dropped": {"x\x1b]0;t\x07y z", 10, "xy z"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Line(tc.in, tc.n); got != tc.want {
				t.Errorf("Line(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}

func TestRelTime(t *testing.T) {
	now := time.Date(2026, 6, 15, 12, 0, 0, 0, time.Local)
	tests := map[string]struct {
		ago  time.Duration
		want string
	}{
		"seconds": {10 * time.Second, "now"},
		"minutes": {5 * time.Minute, "5m ago"},
		"hours":   {3 * time.Hour, "3h ago"},
		"days":    {49 * time.Hour, "2d ago"},
		"month":   {40 * 24 * time.Hour, "May 6"},
		"years":   {400 * 24 * time.Hour, "2025-05-11"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := RelTime(now, now.Add(-tc.ago)); got != tc.want {
				t.Errorf("RelTime(-%v) = %q, want %q", tc.ago, got, tc.want)
			}
		})
	}
	if got := RelTime(now, time.Time{}); got != "" {
		t.Errorf("RelTime(zero) = %q, want \"\"", got)
	}
}
