-- recall: find a session by its title whatever the case. Discover asks on
-- every query whether one is titled exactly so (a query that names a
-- session by its title), and Hermes's unique title index compares case
-- exactly: with NOCASE the lookup read every session row (6 ms at 40,000
-- sessions, each call of `recall mcp`'s tool). A Hermes file opened
-- read-only keeps its own indexes and still scans.
CREATE INDEX IF NOT EXISTS idx_sessions_title_nocase ON sessions(title COLLATE NOCASE) WHERE title IS NOT NULL;
