package opencode

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// legacySession is a storage/session/<project>/<id>.json record (OpenCode
// before 1.2).
type legacySession struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
	Directory string `json:"directory"`
	Time      struct {
		Created  int64 `json:"created"`
		Updated  int64 `json:"updated"`
		Archived int64 `json:"archived"`
	} `json:"time"`
}

// storageRoot is the storage/ folder holding a session file
// (storage/session/<project>/<id>.json).
func storageRoot(file string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// jsonFiles lists the .json files of dir by name (OpenCode's ids sort in
// creation order).
func jsonFiles(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// legacySignature hashes the names, sizes and mtimes of a session's file,
// its message files and their part files: any change re-reads the session.
func legacySignature(file string, msgFiles []string, root string) string {
	h := sha256.New()
	add := func(p string) {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00%d\x00", filepath.Base(p), fi.Size(), fi.ModTime().UnixNano())
		}
	}
	add(file)
	for _, m := range msgFiles {
		add(m)
		for _, p := range jsonFiles(filepath.Join(root, "part", strings.TrimSuffix(filepath.Base(m), ".json"))) {
			add(p)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// importLegacy reads one session of the storage/ layout with its messages
// and parts; any change to them reads the session again in full.
func (s *Source) importLegacy(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var rep importer.Report
	t0 := time.Now()
	fi, err := os.Stat(file)
	if err != nil {
		return rep, fmt.Errorf("stat %s: %w", file, err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		return rep, fmt.Errorf("read %s: %w", file, err)
	}
	var ls legacySession
	if err := json.Unmarshal(raw, &ls); err != nil {
		return rep, fmt.Errorf("%s is not an OpenCode session record: %w", file, err)
	}
	if ls.ID == "" {
		ls.ID = strings.TrimSuffix(filepath.Base(file), ".json")
	}
	root := storageRoot(file)
	msgFiles := jsonFiles(filepath.Join(root, "message", ls.ID))
	sig := legacySignature(file, msgFiles, root)
	unchanged := false
	err = st.Write(ctx, func(tx *store.Tx) error {
		rec, ok, err := tx.ImportFile(file)
		unchanged = err == nil && ok && rec.Source == s.name && rec.State == sig
		return err
	})
	if err != nil || unchanged {
		if unchanged {
			rep.Unchanged = 1
		}
		return rep, err
	}
	var msgs []message
	for _, mf := range msgFiles {
		var m message
		b, err := os.ReadFile(mf)
		if err == nil {
			err = json.Unmarshal(b, &m.info)
		}
		if err != nil {
			rep.Problemf(mf, 0, "unreadable message record: %v", err)
			continue
		}
		if m.info.ID == "" {
			m.info.ID = strings.TrimSuffix(filepath.Base(mf), ".json")
		}
		for _, pf := range jsonFiles(filepath.Join(root, "part", m.info.ID)) {
			var p part
			b, err := os.ReadFile(pf)
			if err == nil {
				err = json.Unmarshal(b, &p)
			}
			if err != nil {
				rep.Problemf(pf, 0, "unreadable part record: %v", err)
				continue
			}
			if p.ID == "" {
				p.ID = strings.TrimSuffix(filepath.Base(pf), ".json")
			}
			m.parts = append(m.parts, p)
		}
		msgs = append(msgs, m)
	}
	sort.SliceStable(msgs, func(i, j int) bool { return msgs[i].info.Time.Created < msgs[j].info.Time.Created })
	row := sessionRow{id: ls.ID, parent: ls.ParentID, title: ls.Title, dir: ls.Directory,
		created: ls.Time.Created, updated: ls.Time.Updated, archived: ls.Time.Archived}
	for _, m := range msgs {
		if t := m.info.Tokens; t != nil {
			row.tok.Input += t.Input
			row.tok.Output += t.Output
			row.tok.Reasoning += t.Reasoning
			row.tok.Cache.Read += t.Cache.Read
			row.tok.Cache.Write += t.Cache.Write
		}
		row.cost += m.info.Cost
		if row.dir == "" && m.info.Path.Cwd != "" {
			row.dir = m.info.Path.Cwd
		}
	}
	// The parent's own file may come later: WriteSessions gives it a
	// minimal row until then.
	sess, out, skipped := s.build(row, msgs, "", map[string]bool{ls.ParentID: ls.ParentID != ""})
	out = importer.DropTooLarge(out, file, &rep)
	rep.ParseTime += time.Since(t0)
	t1 := time.Now()
	inserted := 0
	err = st.Write(ctx, func(tx *store.Tx) error {
		if err := importer.WriteSessions(tx, []store.Session{sess}, true); err != nil {
			return err
		}
		keep, err := tx.KeepDropped(sess.ID, out)
		if err != nil {
			return err
		}
		n, err := tx.InsertMessages(keep)
		if err != nil {
			return fmt.Errorf("insert messages: %w", err)
		}
		inserted = n
		return tx.SetImportFile(store.ImportFile{Path: file, Source: s.name, Size: fi.Size(), ModTime: fi.ModTime(),
			State: sig, Sessions: sess.ID})
	})
	if err != nil {
		return rep, err
	}
	rep.WriteTime += time.Since(t1)
	rep.Files, rep.Sessions, rep.Messages, rep.Skipped = 1, 1, inserted, rep.Skipped+skipped
	return rep, nil
}
