-- Hermes v7
ALTER TABLE messages ADD COLUMN reasoning_content TEXT;
