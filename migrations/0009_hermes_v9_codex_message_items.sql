-- Hermes v9
ALTER TABLE messages ADD COLUMN codex_message_items TEXT;
