package recall

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// countingStore counts the calls recall makes of its Store, per method.
type countingStore struct {
	Store
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingStore) count(name string) {
	c.mu.Lock()
	c.calls[name]++
	c.mu.Unlock()
}

func (c *countingStore) total() int {
	n := 0
	for _, v := range c.calls {
		n += v
	}
	return n
}

func (c *countingStore) String() string {
	var parts []string
	for k, v := range c.calls {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func (c *countingStore) SearchMessages(ctx context.Context, q string, f store.SearchFilter) (store.SearchResult, error) {
	c.count("SearchMessages")
	return c.Store.SearchMessages(ctx, q, f)
}

func (c *countingStore) SessionByTitle(ctx context.Context, title string) (store.Session, error) {
	c.count("SessionByTitle")
	return c.Store.SessionByTitle(ctx, title)
}

func (c *countingStore) Session(ctx context.Context, id string) (store.Session, error) {
	c.count("Session")
	return c.Store.Session(ctx, id)
}

func (c *countingStore) RootSession(ctx context.Context, id string) (string, error) {
	c.count("RootSession")
	return c.Store.RootSession(ctx, id)
}

func (c *countingStore) RootSessions(ctx context.Context, ids []string) (map[string]string, error) {
	c.count("RootSessions")
	return c.Store.RootSessions(ctx, ids)
}

func (c *countingStore) Messages(ctx context.Context, id string) ([]store.Message, error) {
	c.count("Messages")
	return c.Store.Messages(ctx, id)
}

func (c *countingStore) MessagesAround(ctx context.Context, id string, anchor int64, window int) ([]store.Message, int, int, error) {
	c.count("MessagesAround")
	return c.Store.MessagesAround(ctx, id, anchor, window)
}

func (c *countingStore) Bookends(ctx context.Context, id string, minID, maxID int64, n int) ([]store.Message, []store.Message, error) {
	c.count("Bookends")
	return c.Store.Bookends(ctx, id, minID, maxID, n)
}

func (c *countingStore) MessagesByID(ctx context.Context, ids []int64) (map[int64]store.Message, error) {
	c.count("MessagesByID")
	return c.Store.MessagesByID(ctx, ids)
}

func (c *countingStore) RecentSessions(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error) {
	c.count("RecentSessions")
	return c.Store.RecentSessions(ctx, o)
}

// TestDiscoverStoreCalls counts the store calls of one Discover of the
// TUI's shape (10 sessions) on a generated history with delegation chains:
// the first phase made 11 (a session row per result, a root query per
// child hit), the final one 38; now 4 and 22, and one more in the first
// phase: the messages its cut snippets came from, read at once for
// redaction (the final phase has them in the evidence).
func TestDiscoverStoreCalls(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "calls.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := synth.Load(ctx, st, synth.Options{Messages: 5000, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    DiscoverOptions
	}{
		{"first", DiscoverOptions{Limit: MaxSessions, SkipEvidence: true, Filter: store.SearchFilter{Typing: true, Phase: store.PhaseFirst}}},
		{"final", DiscoverOptions{Limit: MaxSessions, Filter: store.SearchFilter{Typing: true, Phase: store.PhaseFinal}}},
	} {
		cs := &countingStore{Store: st, calls: map[string]int{}}
		d, err := New(cs, Options{}).Discover(ctx, "docker", tc.o)
		if err != nil {
			t.Fatal(err)
		}
		children := 0
		for _, r := range d.Results {
			if r.SessionID != r.RootID {
				children++
			}
		}
		t.Logf("%s: %d results (%d hits in a child session): %d calls: %s", tc.name, len(d.Results), children, cs.total(), cs)
		if len(d.Results) < 5 {
			t.Fatalf("%s: %d results: the corpus no longer exercises the lineage", tc.name, len(d.Results))
		}
		// Bookends skipped for a window that holds the whole session: they are empty there.
		for _, r := range d.Results {
			if tc.o.SkipEvidence || len(r.Messages) == 0 {
				continue
			}
			start, end, err := st.Bookends(ctx, r.SessionID, r.Messages[0].ID, r.Messages[len(r.Messages)-1].ID, BookendCount)
			if err != nil {
				t.Fatal(err)
			}
			if len(start) != len(r.BookendStart) || len(end) != len(r.BookendEnd) {
				t.Errorf("%s: bookends %d+%d, the store has %d+%d", r.SessionID, len(r.BookendStart), len(r.BookendEnd), len(start), len(end))
			}
		}
		c := cs.calls
		// One search, one title lookup, one batch of roots; a session row
		// only for a root no hit carried the columns of; per result at most
		// the window and its bookends (none when the window is the session);
		// without evidence, one read of the snippets' messages.
		evidence, anchors := 0, 1
		if !tc.o.SkipEvidence {
			evidence, anchors = len(d.Results), 0
		}
		if c["SearchMessages"] != 1 || c["SessionByTitle"] != 1 || c["RootSessions"] > 1 || c["Session"] > children ||
			c["MessagesAround"] != evidence || c["Bookends"] > evidence || c["MessagesByID"] > anchors || cs.total() > 3+children+2*evidence+anchors {
			t.Errorf("%s: %d store calls (%s), want at most %d", tc.name, cs.total(), cs, 3+children+2*evidence+anchors)
		}
	}
}
