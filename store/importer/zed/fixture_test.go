package zed

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite testdata/importers/zed/seed.sql from threads.json")

// fixtureRow is one threads row of threads.json, its data the thread
// document Zed serializes (data_type zstd unless the row says json).
type fixtureRow struct {
	ID               string          `json:"id"`
	Summary          string          `json:"summary"`
	UpdatedAt        string          `json:"updated_at"`
	CreatedAt        string          `json:"created_at"`
	ParentID         *string         `json:"parent_id"`
	FolderPaths      *string         `json:"folder_paths"`
	FolderPathsOrder *string         `json:"folder_paths_order"`
	DataType         string          `json:"data_type"`
	Thread           json.RawMessage `json:"thread"`
}

// seedSQL is the INSERTs of threads.json as ThreadsDatabase::save_thread_sync
// writes them: the document as compact JSON, zstd-compressed (level 3).
func seedSQL(t *testing.T) string {
	raw, err := os.ReadFile(filepath.Join(it.Fixtures(t, "zed"), "threads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []fixtureRow
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	q := func(s *string) string {
		if s == nil {
			return "NULL"
		}
		return "'" + strings.ReplaceAll(*s, "'", "''") + "'"
	}
	var b strings.Builder
	b.WriteString("-- Generated from threads.json by `go test ./store/importer/zed -run TestSeed -update`: the\n-- documents compact, zstd-compressed, as hex blobs.\n")
	for _, r := range rows {
		var doc bytes.Buffer
		if err := json.Compact(&doc, r.Thread); err != nil {
			t.Fatal(err)
		}
		dataType, data := "zstd", enc.EncodeAll(doc.Bytes(), nil)
		if r.DataType == "json" {
			dataType, data = "json", doc.Bytes()
		}
		fmt.Fprintf(&b, "INSERT INTO threads (id, parent_id, folder_paths, folder_paths_order, summary, updated_at, data_type, data, created_at) VALUES (%s, %s, %s, %s, %s, %s, '%s', X'%s', %s);\n",
			q(&r.ID), q(r.ParentID), q(r.FolderPaths), q(r.FolderPathsOrder), q(&r.Summary), q(&r.UpdatedAt), dataType, hex.EncodeToString(data), q(&r.CreatedAt))
	}
	return b.String()
}

// TestSeed: seed.sql is threads.json as Zed stores it (rewrite it with
// -update after editing threads.json).
func TestSeed(t *testing.T) {
	want := seedSQL(t)
	path := filepath.Join(it.Fixtures(t, "zed"), "seed.sql")
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("seed.sql is not threads.json as Zed stores it (%v): run go test ./store/importer/zed -run TestSeed -update", err)
	}
}
