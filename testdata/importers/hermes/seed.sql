-- Sessions as Hermes writes them. Timestamps are REAL Unix seconds
-- (1781255700 = 2026-06-12 09:15:00 UTC). Ids follow cli.py's
-- %Y%m%d_%H%M%S_<6 hex>; cron runs are cron_<job>_<timestamp>.
INSERT INTO sessions(id, source, model, model_config, parent_session_id, started_at, ended_at, end_reason,
  message_count, tool_call_count, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens,
  cwd, git_branch, git_repo_root, billing_provider, estimated_cost_usd, title, api_call_count, rewind_count)
VALUES
 ('20260612_091500_a1b2c3', 'cli', 'anthropic/claude-sonnet-4.5', '{"temperature":0.7}', NULL, 1781255700.0, 1781257500.0, 'compression',
  8, 1, 18200, 950, 12000, 3100, 0, '/srv/app', 'main', '/srv/app', 'openrouter', 0.1275, 'Nginx 502 after deploy', 4, 1),
 ('20260612_092010_b7c8d9', 'subagent', 'anthropic/claude-haiku-4.5', '{"_delegate_from":"20260612_091500_a1b2c3"}', '20260612_091500_a1b2c3', 1781256010.0, 1781256040.0, 'agent_close',
  2, 0, 900, 60, 0, 0, 0, '/srv/app', 'main', '/srv/app', 'openrouter', 0.001, NULL, 1, 0),
 ('20260612_100000_e1f2a3', 'telegram', 'openai/gpt-5', NULL, NULL, 1781258400.0, NULL, NULL,
  3, 0, 2400, 310, 0, 0, 128, NULL, NULL, NULL, 'openai', 0.0, 'Weekly report', 2, 0),
 ('cron_weekly_digest_20260613_070000', 'cron', 'openai/gpt-5-mini', NULL, NULL, 1781334000.0, 1781334030.0, 'cron_complete',
  2, 0, 700, 120, 0, 0, 0, NULL, NULL, NULL, 'openai', 0.0004, NULL, 1, 0);

INSERT INTO messages(session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, reasoning, active, compacted, display_kind) VALUES
 ('20260612_091500_a1b2c3', 'user', 'nginx returns 502 right after the deploy', NULL, NULL, NULL, 1781255710.0, NULL, NULL, NULL, 1, 0, NULL),
 ('20260612_091500_a1b2c3', 'assistant', NULL, NULL, '[{"id":"call_1","type":"function","function":{"name":"terminal","arguments":"{\"command\":\"journalctl -u app -n 50\"}"}}]', NULL, 1781255715.5, 22, 'tool_calls', 'Check the upstream service logs first.', 1, 0, NULL),
 ('20260612_091500_a1b2c3', 'tool', 'app.service: Main process exited, status=1/FAILURE
Error: listen EADDRINUSE: address already in use :::3000', 'call_1', NULL, 'terminal', 1781255716.25, NULL, NULL, NULL, 1, 0, NULL),
 ('20260612_091500_a1b2c3', 'assistant', 'Port 3000 is still held by the old process. Run systemctl restart app.', NULL, NULL, NULL, 1781255720.0, 40, 'stop', NULL, 1, 0, NULL),
 ('20260612_091500_a1b2c3', 'user', 'kill -9 everything?', NULL, NULL, NULL, 1781255800.0, NULL, NULL, NULL, 0, 0, NULL),
 ('20260612_091500_a1b2c3', 'user', 'restarted it, the site is back', NULL, NULL, NULL, 1781255900.0, NULL, NULL, NULL, 1, 0, NULL),
 ('20260612_091500_a1b2c3', 'assistant', char(0) || 'json:[{"type":"text","text":"Good. Here is the error-rate graph since the restart:"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="}}]', NULL, NULL, NULL, 1781255905.0, 55, 'stop', NULL, 1, 0, NULL),
 ('20260612_091500_a1b2c3', 'assistant', '[CONTEXT COMPACTION] Earlier: 502s after deploy, old process held port 3000, restart fixed it.', NULL, NULL, NULL, 1781257500.0, NULL, NULL, NULL, 0, 1, NULL),
 ('20260612_092010_b7c8d9', 'user', 'Check which process holds port 3000.', NULL, NULL, NULL, 1781256011.0, NULL, NULL, NULL, 1, 0, NULL),
 ('20260612_092010_b7c8d9', 'assistant', 'PID 4121 (node /srv/app/old/server.js) holds port 3000.', NULL, NULL, NULL, 1781256039.0, 18, 'stop', NULL, 1, 0, NULL),
 ('20260612_100000_e1f2a3', 'user', 'send me the weekly report', NULL, NULL, NULL, 1781258410.0, NULL, NULL, NULL, 1, 0, NULL),
 ('20260612_100000_e1f2a3', 'assistant', '<memory-context>user prefers PDF</memory-context>', NULL, NULL, NULL, 1781258411.0, NULL, NULL, NULL, 1, 0, 'hidden'),
 ('20260612_100000_e1f2a3', 'assistant', 'Here is this week''s report: 14 deploys, 2 incidents, MTTR 18 minutes.', NULL, NULL, NULL, 1781258440.0, 88, 'stop', NULL, 1, 0, NULL),
 ('cron_weekly_digest_20260613_070000', 'user', 'Summarise last week''s commits on main.', NULL, NULL, NULL, 1781334001.0, NULL, NULL, NULL, 1, 0, NULL),
 ('cron_weekly_digest_20260613_070000', 'assistant', '42 commits: the invoice rounding fix, VAT per line, and dependency bumps.', NULL, NULL, NULL, 1781334029.0, 64, 'stop', NULL, 1, 0, NULL);
