package sqlitero

import (
	"fmt"
	"os"
)

// Signature is the on-disk state of a database: its file and its WAL
// (where a writer's changes land until a checkpoint). Equal signatures
// mean nothing changed. Importers keep it in their bookkeeping, as JSON
// or as its String.
type Signature struct {
	Size     int64 `json:"s"`
	MTime    int64 `json:"m"`
	WalSize  int64 `json:"ws,omitempty"`
	WalMTime int64 `json:"wm,omitempty"`
}

// SignatureOf stats path and its -wal. An empty WAL holds nothing (a
// reader, recall included, may create it), so it counts as absent.
func SignatureOf(path string) (Signature, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Signature{}, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	sig := Signature{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	if wi, err := os.Stat(path + "-wal"); err == nil && wi.Size() > 0 {
		sig.WalSize, sig.WalMTime = wi.Size(), wi.ModTime().UnixNano()
	}
	return sig, fi, nil
}

// String is the signature as "size/mtime", followed by "+size/mtime" of
// the WAL when there is one: the form the export importers store.
func (s Signature) String() string {
	out := fmt.Sprintf("%d/%d", s.Size, s.MTime)
	if s.WalSize > 0 {
		out += fmt.Sprintf("+%d/%d", s.WalSize, s.WalMTime)
	}
	return out
}
