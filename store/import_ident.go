package store

import (
	"context"
	"fmt"
	"strings"
)

// ImportFilesByIdent returns the recorded files of source whose identity is
// ident (importer.PlanFile looks for the old path of a renamed file).
func (tx *Tx) ImportFilesByIdent(source, ident string) ([]ImportFile, error) {
	var out []ImportFile
	err := tx.c.query("SELECT "+importFileCols+" FROM recall_import_files WHERE source = ? AND ident = ? ORDER BY path",
		[]any{source, ident}, func(st stmtRow) error {
			out = append(out, scanImportFile(st))
			return nil
		})
	return out, err
}

// MoveImportFile gives the record of from to the path to (a renamed or
// moved file), replacing any record to had.
func (tx *Tx) MoveImportFile(from, to string) error {
	if err := tx.c.run("DELETE FROM recall_import_files WHERE path = ?", to); err != nil {
		return fmt.Errorf("move import state of %s: %w", from, err)
	}
	if err := tx.c.run("UPDATE recall_import_files SET path = ? WHERE path = ?", to, from); err != nil {
		return fmt.Errorf("move import state of %s: %w", from, err)
	}
	return nil
}

// DropImportFile removes the record of path (a relative path another
// record of the same file, by its absolute path, supersedes).
func (tx *Tx) DropImportFile(path string) error {
	if err := tx.c.run("DELETE FROM recall_import_files WHERE path = ?", path); err != nil {
		return fmt.Errorf("drop import state of %s: %w", path, err)
	}
	return nil
}

// SetImportIdent records the identity of a file imported before identities
// were kept.
func (tx *Tx) SetImportIdent(path, ident string) error {
	return tx.c.run("UPDATE recall_import_files SET ident = ? WHERE path = ?", nullString(ident), path)
}

// ImportFiles returns every recorded source file (for `stats` and the
// markers of sessions whose source file is gone). A database without import
// bookkeeping (a Hermes state.db) has none.
func (s *Store) ImportFiles(ctx context.Context) ([]ImportFile, error) {
	if !s.layout.hasImportMeta {
		return nil, nil
	}
	var out []ImportFile
	err := s.read(ctx, func(c *conn) error {
		out = out[:0]
		cols := importFileCols
		// A recall database opened read-only before migration 1010 has no ident.
		if _, ok, err := c.scalarInt("SELECT 1 FROM pragma_table_info('recall_import_files') WHERE name = 'ident'"); err != nil {
			return err
		} else if !ok {
			cols = strings.Replace(cols, "COALESCE(ident, '')", "''", 1)
		}
		return c.query("SELECT "+cols+" FROM recall_import_files", nil, func(st stmtRow) error {
			out = append(out, scanImportFile(st))
			return nil
		})
	})
	return out, err
}
