-- Sessions and messages as a Hermes v1 writer stored them: only the v1
-- columns, so the same file seeds the v1- and v10-shaped fixtures.
-- Timestamps are REAL Unix seconds (2026-05-01 12:00 UTC = 1777636800).
INSERT INTO sessions(id, source, model, started_at, ended_at, end_reason, message_count, tool_call_count, input_tokens, output_tokens)
VALUES ('h-root', 'cli', 'claude-sonnet', 1777636800.0, 1777640400.0, 'cli_close', 5, 1, 1200, 800);
INSERT INTO sessions(id, source, model, parent_session_id, started_at, message_count)
VALUES ('h-child', 'subagent', 'claude-haiku', 'h-root', 1777637000.0, 2);
INSERT INTO sessions(id, source, model, started_at, message_count)
VALUES ('h-tg', 'telegram', 'gpt-5', 1777640000.0, 3);

INSERT INTO messages(session_id, role, content, timestamp, token_count) VALUES
 ('h-root', 'user', 'How do I restart the docker container after the deploy failed?', 1777636810.5, 14),
 ('h-root', 'assistant', 'Run docker compose restart api, then check the logs.', 1777636820.25, 12);
INSERT INTO messages(session_id, role, content, tool_call_id, tool_calls, timestamp) VALUES
 ('h-root', 'assistant', NULL, 'call_1', '[{"id":"call_1","type":"function","function":{"name":"terminal","arguments":"{\"cmd\":\"docker ps\"}"}}]', 1777636830.0);
INSERT INTO messages(session_id, role, content, tool_call_id, tool_name, timestamp) VALUES
 ('h-root', 'tool', 'CONTAINER ID   IMAGE   STATUS
3f2a   api     Up 2 seconds', 'call_1', 'terminal', 1777636831.0);
INSERT INTO messages(session_id, role, content, timestamp) VALUES
 ('h-root', 'user', '请帮我修改数据库配置，连接池太小了', 1777636900.0),
 ('h-child', 'user', '检查数据库索引是否生效', 1777637010.0),
 ('h-child', 'assistant', '修改youer服务端的超时设置后重启即可', 1777637020.0),
 ('h-tg', 'user', 'データベースを再起動してください', 1777640010.0),
 ('h-tg', 'assistant', '데이터베이스 연결 오류를 확인하세요', 1777640020.0),
 ('h-tg', 'user', 'kubernetes pod stuck in CrashLoopBackOff; 容器 日志 显示 OOM', 1777640030.0);
