package cli

import (
	"encoding/xml"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// plistDict reads a launchd plist's top-level dict with Go's XML decoder:
// each key to its value (a string, an integer as text, "true"/"false", or
// an array's strings joined by NUL), so a plist that is not well-formed XML,
// or a value escaped wrongly, fails here as it would fail launchd.
func plistDict(t *testing.T, body string) map[string]string {
	t.Helper()
	var doc struct {
		Dict struct {
			Items []struct {
				XMLName xml.Name
				Text    string   `xml:",chardata"`
				Strings []string `xml:"string"`
			} `xml:",any"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("the plist is not well-formed XML: %v\n%s", err, body)
	}
	out := map[string]string{}
	items := doc.Dict.Items
	for i := 0; i+1 < len(items); i += 2 {
		if items[i].XMLName.Local != "key" {
			t.Fatalf("plist dict item %d is <%s>, want <key>:\n%s", i, items[i].XMLName.Local, body)
		}
		v := items[i+1]
		switch v.XMLName.Local {
		case "true", "false":
			out[items[i].Text] = v.XMLName.Local
		case "array":
			out[items[i].Text] = strings.Join(v.Strings, "\x00")
		default:
			out[items[i].Text] = v.Text
		}
	}
	return out
}

// TestLaunchdPlists: on macOS `service install` writes a launchd agent for
// watch and `service install --sync` one for sync. Checked here on any OS:
// both are well-formed plists whose arguments survive paths with spaces,
// & and <, the watch agent is kept alive, the sync agent runs every interval.
func TestLaunchdPlists(t *testing.T) {
	exe := "/Users/ada b/R&D <tools>/recall"
	db := "/Users/ada b/Library/Application Support/recall/recall.db"

	watch := plistDict(t, serviceContent("darwin", exe, db))
	if got, want := strings.Split(watch["ProgramArguments"], "\x00"), []string{exe, "--db", db, "watch"}; !slices.Equal(got, want) {
		t.Errorf("watch agent runs %q, want %q", got, want)
	}
	if watch["Label"] != serviceLabel || watch["KeepAlive"] != "true" || watch["RunAtLoad"] != "true" {
		t.Errorf("watch agent: %v", watch)
	}

	dir := "/Users/ada b/Library/LaunchAgents"
	files := syncTimerFiles("darwin", dir, exe, db, 10*time.Minute)
	body, ok := files[filepath.Join(dir, syncLabel+".plist")]
	if len(files) != 1 || !ok {
		t.Fatalf("sync on macOS writes %d files, want %s.plist alone: %v", len(files), syncLabel, files)
	}
	sync := plistDict(t, body)
	if got, want := strings.Split(sync["ProgramArguments"], "\x00"), []string{exe, "--db", db, "sync", "--both"}; !slices.Equal(got, want) {
		t.Errorf("sync agent runs %q, want %q", got, want)
	}
	if sync["Label"] != syncLabel || sync["StartInterval"] != "600" || sync["RunAtLoad"] != "true" || sync["KeepAlive"] != "" {
		t.Errorf("sync agent: %v (want StartInterval 600, RunAtLoad, no KeepAlive)", sync)
	}

	// Linux: the unit and the timer, never a plist.
	for path := range syncTimerFiles("linux", "/home/ada/.config/systemd/user", exe, db, 10*time.Minute) {
		if strings.HasSuffix(path, ".plist") {
			t.Errorf("sync on Linux writes %s", path)
		}
	}
}
