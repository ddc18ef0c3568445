package geminiapps

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

func jsonFile(t *testing.T) string {
	return filepath.Join(it.Fixtures(t, "gemini-apps"), "json", "Takeout", "My Activity", "Gemini Apps", "MyActivity.json")
}

// TestTakeoutJSON: prompts naming one conversation become one session in
// time order; the others a session each; answers are their HTML as text;
// a regenerated answer is a second reply; activities that are no prompt
// are skipped (testdata/importers/gemini-apps/manifest.json).
func TestTakeoutJSON(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, jsonFile(t))
	if rep.Files != 1 || rep.Sessions != 3 || rep.Messages != 9 || rep.Skipped != 2 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	c := d["3f9c2a7b1e0d4c55"]
	if c.Source != SourceName || c.Title != "Why does my cart total drift by a cent?" || c.StartedAt.UTC().Format("15:04:05.000") != "09:14:05.003" {
		t.Errorf("conversation %+v", c.Session)
	}
	it.SameMsgs(t, "conversation", c.Msgs, []it.Msg{
		{Role: "user", Content: "Why does my cart total drift by a cent?\n[file: cart-screenshot.png]"},
		{Role: "assistant", Content: "Floating-point numbers cannot represent most decimal prices exactly, so 0.1 + 0.2 gives 0.30000000000000004.\n\n1. Store prices in cents.\n2. Round only when you display."},
		{Role: "user", Content: "and how do I fix it in the reducer?"},
		{Role: "assistant", Content: "Sum integer cents instead of floats:\n\n```\nconst total = items.reduce((s, i) => s + Math.round(i.price * 100) * i.qty, 0) / 100;\n```\n\nThen format with `toFixed(2)`."},
	})
	var haiku it.Session
	for id, s := range d {
		if strings.HasPrefix(id, "takeout-") && s.Title == "Write a haiku about Docker networking" {
			haiku = s
		}
	}
	if len(haiku.Msgs) != 3 || haiku.Msgs[2].Content != "Overlay of light\na swarm speaks across the hosts\none network, many" {
		t.Errorf("regenerated answers %v", haiku.Msgs)
	}
	if rep := it.Run(t, st, &Source{}, jsonFile(t)); rep.Unchanged != 1 {
		t.Errorf("second run %+v", rep)
	}
	// The next export holds one more prompt: only what changed is written,
	// the ids of the others stay (they come from the records, not positions).
	raw, _ := os.ReadFile(jsonFile(t))
	next := filepath.Join(t.TempDir(), "MyActivity.json")
	grown := strings.Replace(string(raw), "[", `[{"header":"Gemini Apps","title":"Prompted one more question","time":"2026-11-04T08:00:00.000Z","products":["Gemini Apps"],"safeHtmlItem":[{"html":"<p>one more answer</p>"}]},`, 1)
	if err := os.WriteFile(next, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file outside a Gemini Apps folder is read when it is Gemini's.
	rep = it.Run(t, st, &Source{}, next)
	if rep.Sessions != 1 || rep.Messages != 2 || len(it.Dump(t, st)) != 4 {
		t.Errorf("next export %+v", rep)
	}
}

// TestTakeoutZipAndHTML: the Takeout zip is read in place, and the HTML
// form of the activity file gives the same records.
func TestTakeoutZipAndHTML(t *testing.T) {
	zipped := filepath.Join(t.TempDir(), "takeout-20261105T000000Z-001.zip")
	f, err := os.Create(zipped)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, src := range map[string]string{
		"Takeout/My Activity/Gemini Apps/MyActivity.json": jsonFile(t),
		"Takeout/My Activity/Search/MyActivity.json":      jsonFile(t), // another product's, never read
	} {
		w, _ := zw.Create(name)
		b, _ := os.ReadFile(src)
		w.Write(b)
	}
	zw.Close()
	f.Close()
	st := it.Open(t)
	if rep := it.Run(t, st, &Source{}, zipped); rep.Sessions != 3 || rep.Messages != 9 {
		t.Errorf("zip %+v\n%s", rep, it.Problems(rep))
	}

	st = it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Join(it.Fixtures(t, "gemini-apps"), "html"))
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 4 || rep.Skipped != 1 || rep.Malformed != 0 {
		t.Fatalf("html %+v\n%s", rep, it.Problems(rep))
	}
	var got []string
	for _, s := range it.Dump(t, st) {
		got = append(got, s.StartedAt.UTC().Format("2006-01-02 15:04:05")+" "+s.Msgs[0].Content+" => "+s.Msgs[1].Content)
	}
	want := "2026-11-01 23:59:59 Inspect the bridge network => Use `docker network inspect bridge`; it lists the attached containers.|" +
		"2026-11-02 09:14:05 How do I list Docker networks? => Run `docker network ls`."
	if strings.Join(sorted(got), "|") != want {
		t.Errorf("html sessions:\n%s", strings.Join(sorted(got), "\n"))
	}
}

func sorted(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// TestPathRequired: an export has no default place; a folder is searched
// for its Gemini Apps activity file only.
func TestPathRequired(t *testing.T) {
	var s importer.Source = &Source{}
	if _, ok := s.(importer.PathRequired); !ok || len(s.DefaultPaths()) != 0 {
		t.Fatal("gemini-apps must require a PATH")
	}
	dir := t.TempDir()
	for _, p := range []string{"Takeout/My Activity/Gemini Apps/MyActivity.json", "Takeout/My Activity/Search/MyActivity.json"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("[]"), 0o644)
	}
	got, err := s.Discover([]string{dir})
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "Gemini Apps") {
		t.Errorf("discover %q %v", got, err)
	}
	if f := importer.Detect(jsonFile(t)); f != importer.FormatGeminiApps {
		t.Errorf("detect %+v", f)
	}
}
