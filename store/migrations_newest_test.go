package store

import "testing"

// newestRecallMigration is the number of the last embedded migration: tests
// read it instead of naming one, since other branches add migrations.
func newestRecallMigration(t testing.TB) int {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil || len(ms) == 0 {
		t.Fatalf("load migrations: %v", err)
	}
	return ms[len(ms)-1].version
}
