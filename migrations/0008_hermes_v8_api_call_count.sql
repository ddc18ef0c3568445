-- Hermes v8
ALTER TABLE sessions ADD COLUMN api_call_count INTEGER DEFAULT 0;
