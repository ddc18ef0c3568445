package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadKeys reads the config file's "keys" object: no file or no object is
// the defaults (nil), good bindings are used, and a mistake is one line
// naming the file and the action.
func TestLoadKeys(t *testing.T) {
	tests := []struct {
		name, file string // file "" is no config file
		want       string // the export binding's help key; "" for nil
		wantErr    []string
	}{
		{name: "no file"},
		{name: "no keys", file: `{"model": "m", "base_url": "http://127.0.0.1:1/v1"}`},
		{name: "good", file: `{"model": "m", "keys": {"export": ["E"]}}`, want: "E"},
		{name: "unknown action", file: `{"keys": {"exprot": ["E"]}}`, wantErr: []string{"config.json", `"exprot"`}},
		{name: "empty list", file: `{"keys": {"export": []}}`, wantErr: []string{"config.json", `"export" has no keys`}},
		{name: "conflict", file: `{"keys": {"export": ["ctrl+t"], "next_hit": ["ctrl+t"]}}`, wantErr: []string{"config.json", "next_hit", "export"}},
		{name: "not a list", file: `{"keys": {"export": "E"}}`, wantErr: []string{"config.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.file != "" {
				if err := os.MkdirAll(filepath.Join(dir, "recall"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "recall", "config.json"), []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			km, err := loadKeys(func(k string) string {
				if k == "XDG_CONFIG_HOME" {
					return dir
				}
				return ""
			})
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("no error, want %q", tt.wantErr)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) || strings.Contains(err.Error(), "\n") {
						t.Errorf("error %q: want one line with %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == "" && km != nil:
				t.Errorf("got a key map, want nil (the defaults)")
			case tt.want != "" && (km == nil || km.Export.Help().Key != tt.want):
				t.Errorf("export key: got %v, want %q", km, tt.want)
			}
		})
	}
}
