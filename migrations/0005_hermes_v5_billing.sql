-- Hermes v5: cache/reasoning token counts and billing columns.
ALTER TABLE sessions ADD COLUMN cache_read_tokens INTEGER DEFAULT 0;
ALTER TABLE sessions ADD COLUMN cache_write_tokens INTEGER DEFAULT 0;
ALTER TABLE sessions ADD COLUMN reasoning_tokens INTEGER DEFAULT 0;
ALTER TABLE sessions ADD COLUMN billing_provider TEXT;
ALTER TABLE sessions ADD COLUMN billing_base_url TEXT;
ALTER TABLE sessions ADD COLUMN billing_mode TEXT;
ALTER TABLE sessions ADD COLUMN estimated_cost_usd REAL;
ALTER TABLE sessions ADD COLUMN actual_cost_usd REAL;
ALTER TABLE sessions ADD COLUMN cost_status TEXT;
ALTER TABLE sessions ADD COLUMN cost_source TEXT;
ALTER TABLE sessions ADD COLUMN pricing_version TEXT;
