package cli

import (
	"testing"
	"time"

	"github.com/recall-dev/recall/store/importer"
)

// TestProgressLineETA: the terminal progress line ends with the time left,
// estimated from the bytes read, once there is something to estimate from.
func TestProgressLineETA(t *testing.T) {
	for _, tc := range []struct {
		name string
		pg   importer.Progress
		want string
	}{
		{"quarter in 14s", importer.Progress{Source: "claude-code", FilesDone: 312, FilesTotal: 500, Messages: 41200,
			BytesDone: 250, BytesTotal: 1000, Elapsed: 14 * time.Second},
			"claude-code  [bar] 312/500 files  41,200 msgs  2,943 msg/s  ETA 0:42"},
		{"over an hour", importer.Progress{Source: "codex", FilesDone: 1, FilesTotal: 9, Messages: 10,
			BytesDone: 1, BytesTotal: 100, Elapsed: time.Minute},
			"codex        [bar] 1/9 files  10 msgs  0 msg/s  ETA 1:39:00"},
		{"nothing read yet", importer.Progress{Source: "hermes", FilesTotal: 3},
			"hermes       [bar] 0/3 files  0 msgs  0 msg/s"},
	} {
		if got := progressLine(tc.pg, "[bar]"); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
