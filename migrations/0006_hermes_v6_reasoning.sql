-- Hermes v6: reasoning columns.
ALTER TABLE messages ADD COLUMN reasoning TEXT;
ALTER TABLE messages ADD COLUMN reasoning_details TEXT;
ALTER TABLE messages ADD COLUMN codex_reasoning_items TEXT;
