-- Rows as Goose writes them: content_json is a serialized Vec<MessageContent>
-- (crates/goose/src/conversation/message.rs: tag "type", camelCase; ToolResult as
-- {"status","value"} / {"status","error"}), metadata_json a MessageMetadata.
INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data,
  total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens) VALUES
 ('20251108_1', 'Rename config keys', FALSE, 'user', '/home/dev/cli', '2025-11-08 09:00:00', '2025-11-08 09:05:00', '{}', 3100, 3000, 100, 8600, 8000, 600),
 ('20251108_2', '', FALSE, 'hidden', '/home/dev/cli', '2025-11-08 09:01:00', '2025-11-08 09:01:05', '{}', NULL, NULL, NULL, NULL, NULL, NULL),
 ('20251109_1', 'New session', FALSE, 'user', '/home/dev', '2025-11-09 10:00:00', '2025-11-09 10:00:00', '{}', NULL, NULL, NULL, NULL, NULL, NULL),
 ('20251109_2', 'Count TODOs', FALSE, 'sub_agent', '/home/dev/cli', '2025-11-09 11:00:00', '2025-11-09 11:00:30', '{}', 500, 450, 50, 500, 450, 50);
INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) VALUES
 ('20251108_1', 'user', '[{"type":"text","text":"rename max_retries to retry_limit everywhere"}]', 1762592401, '{"userVisible":true,"agentVisible":true}'),
 ('20251108_1', 'assistant', '[{"type":"thinking","thinking":"Find every file that mentions it first.","signature":"sig"},{"type":"text","text":"Searching for max_retries."},{"type":"toolRequest","id":"toolu_01Shell","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"rg -l max_retries"}}}}]', 1762592405, '{"userVisible":true,"agentVisible":true}'),
 ('20251108_1', 'user', '[{"type":"toolResponse","id":"toolu_01Shell","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"config.go\nconfig_test.go"}],"isError":false}}}]', 1762592406, '{"userVisible":true,"agentVisible":true}'),
 ('20251108_1', 'assistant', '[{"type":"text","text":"Renamed retry_limit in config.go and config_test.go."}]', 1762592460, '{"userVisible":true,"agentVisible":true}'),
 ('20251108_1', 'user', '[{"type":"text","text":"The previous conversation was summarized: the config key was renamed in two files."}]', 1762592480, '{"userVisible":false,"agentVisible":true}'),
 ('20251108_2', 'user', '[{"type":"text","text":"Generate a short title for this conversation."}]', 1762592460, NULL),
 ('20251109_2', 'user', '[{"type":"text","text":"count the TODO comments in src/"}]', 1762686001, NULL),
 ('20251109_2', 'assistant', '[{"type":"toolRequest","id":"call_7","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"rg -c TODO src/"}}}}]', 1762686003, NULL),
 ('20251109_2', 'user', '[{"type":"toolResponse","id":"call_7","toolResult":{"status":"error","error":"rg: command not found"}}]', 1762686004, NULL);
