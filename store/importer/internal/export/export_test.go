package export

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

type testSource struct{}

func (testSource) Name() string                              { return "test-export" }
func (testSource) DefaultPaths() []string                    { return nil }
func (testSource) Discover(paths []string) ([]string, error) { return Discover(paths) }
func (testSource) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	type conv struct{ ID, Text string }
	return ImportStream(ctx, st, "test-export", file, Format[conv]{
		Head: func(raw json.RawMessage, t *importer.Tally) (conv, store.Session, bool) {
			var c conv
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Malformed("%s", importer.DecodeProblem(err))
				return c, store.Session{}, false
			}
			return c, store.Session{ID: c.ID, Source: "test-export"}, true
		},
		Rows: func(c conv, _ *store.Session, _ *Items, _ *importer.Tally, emit func(store.Message) error) error {
			return emit(store.Message{SessionID: c.ID, Role: "user", Content: c.Text, SourceKey: "1"})
		},
	})
}

// TestProgressWithinFile: one large export reports its progress by the
// bytes read inside it, batch by batch, not only when it is done.
func TestProgressWithinFile(t *testing.T) {
	old := batchConversations
	batchConversations = 10
	defer func() { batchConversations = old }()
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 100; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"ID":"c%03d","Text":"conversation %d about %s"}`, i, i, strings.Repeat("nginx ", 20))
	}
	b.WriteString("]")
	file := filepath.Join(t.TempDir(), "conversations.json")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	var seen []importer.Progress
	rep, err := importer.Run(context.Background(), st, testSource{}, []string{file}, importer.Options{
		Progress: func(p importer.Progress) { seen = append(seen, p) }})
	if err != nil || rep.Sessions != 100 || rep.Messages != 100 {
		t.Fatalf("%+v, %v", rep, err)
	}
	mid := 0
	for i, p := range seen {
		if i > 0 && p.BytesDone < seen[i-1].BytesDone {
			t.Errorf("progress went back: %d after %d", p.BytesDone, seen[i-1].BytesDone)
		}
		if p.BytesDone > 0 && p.BytesDone < p.BytesTotal && p.Messages > 0 {
			mid++
		}
	}
	if mid < 5 || seen[len(seen)-1].BytesDone != seen[len(seen)-1].BytesTotal {
		t.Errorf("%d progress reports inside the file (want at least 5), last %+v", mid, seen[len(seen)-1])
	}
	// A broken element stops the stream: what came before is kept and the
	// file is read again next time.
	if err := os.WriteFile(file, []byte(b.String()[:len(b.String())/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	st2 := it.Open(t)
	rep, _ = importer.Run(context.Background(), st2, testSource{}, []string{file}, importer.Options{})
	if rep.Failed != 1 || rep.Messages < 40 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Msg, "conversation") {
		t.Errorf("cut short: %+v", rep)
	}
}
