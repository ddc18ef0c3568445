-- Hermes v3
ALTER TABLE sessions ADD COLUMN title TEXT;
