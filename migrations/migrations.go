// Package migrations holds recall's schema as numbered SQL files, embedded in
// the binary.
//
// Files 0001-0011 replay Hermes Agent's explicit chain (v1 -> v10, then the
// v11 switch to inline FTS5) and are recorded in Hermes's schema_version
// table, so a database recall creates is a valid Hermes v11 state.db.
// Files 1001 and up are recall's own additions (the short-CJK index, import
// bookkeeping, FTS tuning). They are recorded in state_meta under
// recall_schema_version instead: bumping schema_version past 11 would make
// Hermes skip its own v12+ steps if it ever opened the file.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS

// HermesMax is the last migration number that belongs to Hermes's chain.
const HermesMax = 11

// RecallBase is the number at which recall's own migrations start.
const RecallBase = 1000
