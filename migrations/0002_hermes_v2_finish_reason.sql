-- Hermes v2
ALTER TABLE messages ADD COLUMN finish_reason TEXT;
