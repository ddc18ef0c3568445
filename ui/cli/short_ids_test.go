package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShortIDsShown: recent, search and messages name sessions by their
// short ids (the shortest unique prefix of the source's own id, "@source"
// only where two sources share it), never by the long stored ids; JSON
// keeps the stored id and adds short_id; show takes the short id back.
func TestShortIDsShown(t *testing.T) {
	const shared, other = "3f2a9c1e-7b4d-4e21-9a0f-5c6d7e8f9a0b", "3f2a9c1e-0c1d-4e21-9a0f-5c6d7e8f9a0b"
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	for _, f := range []struct{ name, id, src, a, b string }{
		{"a.jsonl", shared, "toolA", "alpha question", "alpha answer"},
		{"b.jsonl", shared, "toolB", "bravo question", "bravo answer"},
		{"c.jsonl", other, "toolA", "charlie question", "charlie answer"},
	} {
		body := `{"session_id":"` + f.id + `","source":"` + f.src + `","role":"user","content":"` + f.a + `","timestamp":1784278800}` + "\n" +
			`{"session_id":"` + f.id + `","source":"` + f.src + `","role":"assistant","content":"` + f.b + `","timestamp":1784278860}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCLI(t, false, "--db", db, "import", "jsonl", filepath.Join(dir, f.name)); code != 0 {
			t.Fatalf("import %s: %s", f.name, errOut)
		}
	}
	shown := []string{"3f2a9c1e-7@toolA", "3f2a9c1e-7@toolB", "3f2a9c1e-0"}
	for _, args := range [][]string{{"recent"}, {"search", "--no-summary", "question"}, {"messages", "question"}} {
		code, out, errOut := runCLI(t, false, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
		for _, id := range shown {
			if !strings.Contains(out, id+" ") && !strings.Contains(out, id+"\n") {
				t.Errorf("%v does not name a session %s:\n%s", args, id, out)
			}
		}
		if strings.Contains(out, "9a0f-5c6d7e8f9a0b") {
			t.Errorf("%v prints a whole id:\n%s", args, out)
		}
	}
	code, out, _ := runCLI(t, false, "--db", db, "recent", "--json")
	var rows []struct {
		ID      string `json:"session_id"`
		ShortID string `json:"short_id"`
	}
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 3 {
		t.Fatalf("recent --json: exit %d, %v\n%s", code, err, out)
	}
	for _, r := range rows {
		if r.ID != shared && r.ID != shared+"@toolB" && r.ID != other || r.ShortID == "" || !strings.HasPrefix(r.ID, strings.Split(r.ShortID, "@")[0]) {
			t.Errorf("recent --json row %+v", r)
		}
	}
	for id, want := range map[string]string{"3f2a9c1e-7@toolB": "bravo answer", "3f2a9c1e-7@toolA": "alpha answer", "3f2a9c1e-0": "charlie answer"} {
		if code, out, errOut := runCLI(t, false, "--db", db, "show", id); code != 0 || !strings.Contains(out, want) {
			t.Errorf("show %s: exit %d, %s%s", id, code, out, errOut)
		}
	}
	code, _, errOut := runCLI(t, false, "--db", db, "show", "3f2a9c1e-7")
	if code == 0 || !strings.Contains(errOut, "3f2a9c1e-7@toolA, 3f2a9c1e-7@toolB") {
		t.Errorf("show 3f2a9c1e-7: exit %d, %s (want both short ids)", code, errOut)
	}
}
