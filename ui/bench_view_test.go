package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// bigBackend is 60 sessions with mixed-script titles and a long transcript.
func bigBackend() *fakeBackend {
	b := &fakeBackend{msgs: map[string][]store.Message{}, summary: "ok"}
	for i := range 60 {
		id := fmt.Sprintf("s-%03d", i)
		b.sessions = append(b.sessions, store.SessionSummary{Session: store.Session{ID: id, Source: "claude-code",
			Model: "claude-sonnet-4", Title: fmt.Sprintf("会话 %d: sqlite migration and 数据库 tuning 🚀", i),
			StartedAt: testNow.Add(-time.Duration(i) * time.Hour), MessageCount: 200}, Preview: "why is the migration slow"})
		var msgs []store.Message
		for j := range 200 {
			role := []string{"user", "assistant", "tool"}[j%3]
			msgs = append(msgs, store.Message{ID: int64(i*1000 + j), SessionID: id, Role: role, ToolName: "Bash",
				Content:   strings.Repeat(fmt.Sprintf("Line %d about the sqlite migration, 数据库 and `busy_timeout`. ", j), 4),
				Timestamp: testNow})
		}
		b.msgs[id] = msgs
	}
	return b
}

// BenchmarkView measures one frame at 200x60 with a search result list, a
// rendered transcript and highlighted snippets. "dirty" redraws the list
// (as after a keystroke); "cached" is a frame where only the status changed.
func BenchmarkView(b *testing.B) {
	t := &testing.T{}
	d := newDriver(t, bigBackend(), 200, 60)
	d.typ("migration")
	deadline := time.Now().Add(10 * time.Second)
	for (d.m.detail.doc.session.ID == "" || d.m.finalSeq != d.m.seq) && time.Now().Before(deadline) {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(50 * time.Millisecond):
		}
	}
	if d.m.detail.doc.session.ID == "" {
		b.Fatal("transcript never rendered")
	}
	b.Run("dirty", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.m.list.dirty = true
			_ = d.m.View()
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = d.m.View()
		}
	})
}

// BenchmarkSummaryFrame compares rendering a growing 8 KB answer with the
// block cache (only the last block) against a full Glamour render per frame.
func BenchmarkSummaryFrame(b *testing.B) {
	para := "The migration failed because `PRAGMA busy_timeout` was unset; the fix sets it to 5000 ms and retries. "
	var doc strings.Builder
	for i := range 20 {
		fmt.Fprintf(&doc, "%s%s\n\n", strings.Repeat(para, 3), fmt.Sprintf("(%d)", i))
		if i%5 == 0 {
			doc.WriteString("```\nPRAGMA busy_timeout = 5000;\n```\n\n")
		}
	}
	text := doc.String()
	md := newMarkdown(nil, false)
	b.Run("block-cache", func(b *testing.B) {
		c := newBlockCache(md)
		c.Frame(text, 80)
		for b.Loop() {
			c.Frame(text+"more", 80)
		}
	})
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			md.Render(text+"more", 80)
		}
	})
}
