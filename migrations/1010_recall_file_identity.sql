-- recall: a source file's identity, so that a renamed or moved transcript is
-- recognised instead of imported a second time.
--
-- ident is a hash of the file's first line (at most 4 KiB): the record an
-- agent writes first and never rewrites (Claude Code's first record names
-- its session). A file on a new path whose ident matches a row whose own path
-- is gone takes that row over (importer.PlanFile), with its cursor, so
-- nothing is read twice. Rows written before this migration get their ident
-- the next time an import sees the file.
ALTER TABLE recall_import_files ADD COLUMN ident TEXT;
CREATE INDEX IF NOT EXISTS recall_import_files_ident ON recall_import_files(source, ident) WHERE ident IS NOT NULL;
