package store

import (
	"fmt"
	"strings"
)

// An app that keeps one live conversation per session in its own database
// (Hermes's state.db) changes messages recall copied: a rewind takes turns
// back, /undo, /retry and /compress delete the session's rows and insert
// them again under new ids (some dropped, some new), another tool may edit
// a row. recall's copy must read as the app shows the session now, in its
// order, and lose nothing it held: MirrorSession does both.

// MirrorSession brings the stored copy of session id (the source's own id;
// source names its source) up to msgs: every message the source shows of it
// now, in order, each with its source key. It returns how many of msgs were
// new and inserted.
//
//   - A stored message whose key is in msgs follows it: its state in place;
//     new text with the text it had kept as an earlier version just before
//     it (DisplayKindEarlier, as rewrite.go keeps them).
//   - A stored message whose key is not in msgs but whose text a message of
//     msgs under a new key has (the source deleted and re-inserted it)
//     takes that key: nothing is copied twice.
//   - Any other stored message the source keeps no more (taken back,
//     deleted) becomes an earlier version where it is: out of the live
//     conversation, still searched, counted by `stats` (messages_rewritten)
//     and by Rewritten. Shown again later under its key, it is live again.
//
// Stored rows keep their ids while the order allows; from the first place
// where the source's order puts a message before a stored one (a restored
// turn, a summary ahead of the kept turns), the rows after it are written
// again in that order, the earlier versions next to where they were. Rows
// without a source key are left where they are.
func (tx *Tx) MirrorSession(id, source string, msgs []Message) (int, error) {
	l := tx.s.layout
	if !l.hasKeys || !l.hasDisplayState() {
		// Nowhere to keep an earlier version: keep every stored message.
		rest, err := tx.KeepDropped(id, msgs)
		if err != nil {
			return 0, err
		}
		return tx.InsertMessages(rest)
	}
	sid, err := tx.resolveNative(id, source)
	if err != nil {
		return 0, err
	}
	for i := range msgs {
		m := &msgs[i]
		if err := CheckMessageSize(*m); err != nil {
			return 0, fmt.Errorf("message %d of %d in %s: %w", i+1, len(msgs), sid, err)
		}
		if m.Role == "" || m.SourceKey == "" {
			return 0, fmt.Errorf("mirror %s: message %d has no role or no source key", sid, i+1)
		}
		if msid, err := tx.resolveMessage(m); err != nil || msid != sid {
			return 0, fmt.Errorf("mirror %s: message %d belongs to session %s (%v)", sid, i+1, msid, err)
		}
		tx.redactIncoming(m) // compared, and stored, as redact_at_import stores it
	}
	rows, err := tx.mirrorRows(sid)
	if err != nil {
		return 0, err
	}
	p := planMirror(rows, msgs)
	tx.dirty[sid] = true
	div := p.divergence(len(rows))
	for k := 0; k < div; k++ {
		if err := tx.mirrorInPlace(sid, rows[k], p.match[k], msgs); err != nil {
			return 0, err
		}
	}
	return tx.mirrorRewrite(sid, rows, msgs, p, div)
}

// mirrorRow is a stored message of the session being mirrored, without its
// text (hash stands for it).
type mirrorRow struct {
	keyedRow
	keys []string // its source keys (without the session prefix)
	hash string
}

// sourceKey is the row's key in its source, "" for an earlier version or a
// row imported without one.
func (r mirrorRow) sourceKey() string {
	for _, k := range r.keys {
		if !strings.Contains(k, earlierKeyTag) {
			return k
		}
	}
	return ""
}

// isEarlier reports an earlier version (rewrite.go), searched or not.
func (r keyedRow) isEarlier() bool {
	return !r.active && r.kind == DisplayKindEarlier
}

// mirrorRows reads session sid's stored messages in id order, each with
// its keys and a hash of its text.
func (tx *Tx) mirrorRows(sid string) ([]mirrorRow, error) {
	keys, err := tx.sessionKeys(sid)
	if err != nil {
		return nil, err
	}
	var rows []mirrorRow
	err = tx.c.query("SELECT "+tx.s.layout.keyedRowCols()+" FROM messages m WHERE m.session_id = ? ORDER BY m.id", []any{sid}, func(st stmtRow) error {
		r := scanKeyedRow(st)
		h := r.hash()
		r.content, r.calls, r.reasoning = "", "", "" // the hash stands for them
		rows = append(rows, mirrorRow{keyedRow: r, keys: keys[r.id], hash: h})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the messages of %s: %w", sid, err)
	}
	return rows, nil
}

// sessionKeys are the source keys (without the session prefix) of session
// sid's stored messages, by message id.
func (tx *Tx) sessionKeys(sid string) (map[int64][]string, error) {
	keys := map[int64][]string{}
	if !tx.s.layout.hasKeys {
		return keys, nil
	}
	prefix := sid + "\x00"
	err := tx.c.query("SELECT key, message_id FROM recall_message_keys WHERE key >= ? AND key < ?", []any{prefix, sid + "\x01"}, func(st stmtRow) error {
		id := st.ColumnInt64(1)
		keys[id] = append(keys[id], strings.TrimPrefix(st.ColumnText(0), prefix))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the keys of %s: %w", sid, err)
	}
	return keys, nil
}

// mirrorPlan says what becomes of each stored row and in which order rows
// and new messages stand.
type mirrorPlan struct {
	match   []int  // per stored row, the index in msgs it stands for, or -1
	rekeyed []bool // per stored row: matched by its text, under a new key
	order   []mirrorItem
}

// mirrorItem is one place in the session's new order: a stored row (row >=
// 0), the earlier version of a stored row whose text changed (row >= 0,
// earlier), or a new message (row < 0, msg >= 0).
type mirrorItem struct {
	row, msg int
	earlier  bool
}

// planMirror matches stored rows to msgs (by key, then by text for rows
// whose key is gone) and lays them out: msgs in their order, each stored
// row with no match right after the matched row before it (or first).
func planMirror(rows []mirrorRow, msgs []Message) mirrorPlan {
	p := mirrorPlan{match: make([]int, len(rows)), rekeyed: make([]bool, len(rows))}
	byKey := map[string]int{}
	for i, r := range rows {
		p.match[i] = -1
		if k := r.sourceKey(); k != "" {
			byKey[k] = i
		}
	}
	rowOf := make([]int, len(msgs))
	for j := range msgs {
		rowOf[j] = -1
		if i, ok := byKey[msgs[j].SourceKey]; ok && p.match[i] < 0 {
			p.match[i], rowOf[j] = j, i
		}
	}
	// Rows whose key the source no longer has, by text, oldest first.
	byText := map[string][]int{}
	for i, r := range rows {
		if p.match[i] < 0 && r.sourceKey() != "" {
			byText[r.hash] = append(byText[r.hash], i)
		}
	}
	for j := range msgs {
		if rowOf[j] >= 0 {
			continue
		}
		h := messageHash(&msgs[j])
		if c := byText[h]; len(c) > 0 {
			i := c[0]
			byText[h] = c[1:]
			p.match[i], p.rekeyed[i], rowOf[j] = j, true, i
		}
	}
	// Unmatched rows follow the matched row before them.
	after := map[int][]int{}
	prev := -1
	for i := range rows {
		if p.match[i] >= 0 {
			prev = i
		} else {
			after[prev] = append(after[prev], i)
		}
	}
	loose := func(i int) {
		for _, r := range after[i] {
			p.order = append(p.order, mirrorItem{row: r, msg: -1})
		}
	}
	loose(-1)
	for j := range msgs {
		i := rowOf[j]
		if i < 0 {
			p.order = append(p.order, mirrorItem{row: -1, msg: j})
			continue
		}
		if !p.rekeyed[i] && rows[i].hash != messageHash(&msgs[j]) {
			p.order = append(p.order, mirrorItem{row: i, msg: -1, earlier: true})
		}
		p.order = append(p.order, mirrorItem{row: i, msg: j})
		loose(i)
	}
	return p
}

// divergence is the first place in the new order that is not the stored
// row already there: rows before it stay where they are.
func (p mirrorPlan) divergence(stored int) int {
	k := 0
	for k < stored && k < len(p.order) && p.order[k].row == k && !p.order[k].earlier {
		k++
	}
	return k
}

// mirrorInPlace brings a stored row that keeps its place up to date: the
// state of the message it matched (and that message's key), or, matched
// by nothing, an earlier version.
func (tx *Tx) mirrorInPlace(sid string, r mirrorRow, j int, msgs []Message) error {
	if j < 0 {
		if r.sourceKey() == "" || r.isEarlier() {
			return nil
		}
		return tx.markEarlier(r.keyedRow)
	}
	m := &msgs[j]
	m.ID = r.id
	if old := r.sourceKey(); old != m.SourceKey {
		if err := tx.c.run("UPDATE recall_message_keys SET key = ? WHERE key = ?", sid+"\x00"+m.SourceKey, sid+"\x00"+old); err != nil {
			return fmt.Errorf("re-key message %d of %s: %w", r.id, sid, err)
		}
	}
	if r.sameState(m) {
		return nil
	}
	return tx.overwriteMessage(r.id, m)
}

// mirrorRewrite writes the order from place div on: the stored rows there
// are read whole, deleted and written again, in order, with the new
// messages and earlier versions among them.
func (tx *Tx) mirrorRewrite(sid string, rows []mirrorRow, msgs []Message, p mirrorPlan, div int) (int, error) {
	if div >= len(p.order) {
		return 0, nil
	}
	whole := map[int64]keyedRow{}
	if div < len(rows) {
		err := tx.c.query("SELECT "+tx.s.layout.keyedRowCols()+" FROM messages m WHERE m.session_id = ? AND m.id >= ?",
			[]any{sid, rows[div].id}, func(st stmtRow) error {
				r := scanKeyedRow(st)
				whole[r.id] = r
				return nil
			})
		if err != nil {
			return 0, fmt.Errorf("read the messages of %s: %w", sid, err)
		}
	}
	type write struct {
		m       *Message
		keys    []string
		fresh   bool // a new message: inserted as any import inserts it
		rewrite bool // an earlier version kept now
	}
	stored := map[string]bool{} // every key of the session, as mirrorRows read them
	for _, r := range rows {
		for _, k := range r.keys {
			stored[k] = true
		}
	}
	var writes []write
	batch := make([]Message, 0, len(p.order)-div)
	for _, it := range p.order[div:] {
		var w write
		switch r := rowAt(rows, it.row); {
		case it.row < 0: // new
			w = write{m: &msgs[it.msg], fresh: true}
		case it.earlier: // the text a row had before the source changed it
			old := earlierVersion(sid, r.sourceKey(), whole[r.id])
			if stored[old.SourceKey] {
				continue // kept by an earlier import
			}
			w = write{m: &old, keys: []string{old.SourceKey}, rewrite: true}
		case p.match[it.row] >= 0: // the row, as the source has it now
			w = write{m: &msgs[p.match[it.row]], keys: r.keys}
			if p.rekeyed[it.row] {
				w.keys = append(earlierKeys(r.keys), w.m.SourceKey)
			}
		default: // kept: an earlier version, unless it is one or has no key
			m := whole[r.id].message(sid)
			w = write{m: &m, keys: r.keys}
			if r.sourceKey() != "" && !r.isEarlier() {
				m.Inactive, m.Compacted, m.DisplayKind = true, r.earlierSearched(), DisplayKindEarlier
				w.rewrite = true
			}
		}
		writes = append(writes, w)
		batch = append(batch, *w.m)
	}
	if div < len(rows) {
		if err := tx.c.run("DELETE FROM messages WHERE session_id = ? AND id >= ?", sid, rows[div].id); err != nil {
			return 0, fmt.Errorf("reorder the messages of %s: %w", sid, err)
		}
		delete(tx.prevText, sid) // the message before the next one is a stored one again
	}
	bulk, err := tx.bulkFor(batch)
	if err != nil {
		return 0, err
	}
	inserted := 0
	for _, w := range writes {
		if w.fresh {
			ok, err := tx.insertMessage(w.m, sid, bulk)
			if err != nil {
				return inserted, err
			}
			if ok {
				inserted++
			}
			continue
		}
		if w.rewrite {
			tx.rewritten++
		}
		if err := tx.restoreRow(sid, w.m, w.keys, bulk); err != nil {
			return inserted, err
		}
	}
	return inserted, nil
}

func rowAt(rows []mirrorRow, i int) mirrorRow {
	if i < 0 {
		return mirrorRow{}
	}
	return rows[i]
}

// restoreRow writes a row the session held (moved, not new: no forget or
// duplicate check) with its keys.
func (tx *Tx) restoreRow(sid string, m *Message, keys []string, bulk bool) error {
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = sid + "\x00" + k
	}
	tx.follows(sid, cleanContent(m.Content))
	return tx.writeMessage(m, sid, bulk, full)
}

// earlierKeys are the keys of earlier versions among keys.
func earlierKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if strings.Contains(k, earlierKeyTag) {
			out = append(out, k)
		}
	}
	return out
}
