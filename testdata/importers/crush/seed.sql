-- Rows as Crush writes them: timestamps in Unix seconds (strftime('%s', 'now')),
-- parts as a JSON list of {"type", "data"} (internal/message/message.go marshalParts).
INSERT INTO sessions (id, parent_session_id, title, message_count, prompt_tokens, completion_tokens, cost, updated_at, created_at) VALUES
 ('7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', NULL, 'Fix flaky TestRetry', 7, 12000, 800, 0.042, 1764932500, 1764932400),
 ('toolu_01ChildAgentCall', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'Find retry tests', 2, 900, 60, 0.003, 1764932460, 1764932440),
 ('a0b1c2d3-0000-4000-8000-000000000003', NULL, 'New Session', 0, 0, 0, 0, 1764932000, 1764932000);
INSERT INTO messages (id, session_id, role, parts, model, created_at, updated_at, finished_at, provider, is_summary_message) VALUES
 ('m1', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'user',
  '[{"type":"text","data":{"text":"TestRetry fails one run in ten, find out why"}}]', NULL, 1764932401, 1764932401, NULL, NULL, 0),
 ('m2', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'assistant',
  '[{"type":"reasoning","data":{"thinking":"Probably a timing assumption; run it repeatedly.","signature":"sig","started_at":1764932402,"finished_at":1764932403}},{"type":"text","data":{"text":"Let me run it 50 times."}},{"type":"tool_call","data":{"id":"toolu_01Bash","name":"bash","input":"{\"command\":\"go test -run TestRetry -count=50 ./retry\"}","provider_executed":false,"finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1764932404}}]',
  'claude-sonnet-4-5', 1764932402, 1764932404, 1764932404, 'anthropic', 0),
 ('m3', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'tool',
  '[{"type":"tool_result","data":{"tool_call_id":"toolu_01Bash","name":"bash","content":"--- FAIL: TestRetry (0.01s)\n    retry_test.go:41: backoff 9ms < 10ms","data":"","mime_type":"","metadata":"","is_error":false}}]', NULL, 1764932420, 1764932420, NULL, NULL, 0),
 ('m4', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'assistant',
  '[{"type":"text","data":{"text":"The jitter can make the backoff shorter than the 10ms the test expects; compare against the minimum instead."}},{"type":"finish","data":{"reason":"end_turn","time":1764932430}}]',
  'claude-sonnet-4-5', 1764932430, 1764932430, 1764932430, 'anthropic', 0),
 ('m5', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'user',
  '[{"type":"shell_command","data":{"command":"git status --short","output":" M retry/retry_test.go","exit_code":0}}]', NULL, 1764932480, 1764932480, NULL, NULL, 0),
 ('m6', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'user',
  '[{"type":"text","data":{"text":"commit it"}}]', NULL, 1764932490, 1764932490, NULL, NULL, 0),
 ('m7', '7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60', 'assistant',
  '[{"type":"tool_call","data":{"id":"toolu_01Commit","name":"bash","input":"{\"command\":\"git commit -am","provider_executed":false,"finished":false}},{"type":"finish","data":{"reason":"canceled","time":1764932495}}]',
  'claude-sonnet-4-5', 1764932491, 1764932495, 1764932495, 'anthropic', 0),
 ('c1', 'toolu_01ChildAgentCall', 'user',
  '[{"type":"text","data":{"text":"List the tests that call retry.Do"}}]', NULL, 1764932441, 1764932441, NULL, NULL, 0),
 ('c2', 'toolu_01ChildAgentCall', 'assistant',
  '[{"type":"text","data":{"text":"retry_test.go: TestRetry, TestRetryGivesUp"}},{"type":"finish","data":{"reason":"end_turn","time":1764932459}}]',
  'claude-haiku-4-5', 1764932450, 1764932459, 1764932459, 'anthropic', 0);
