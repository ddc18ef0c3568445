#!/usr/bin/env python3
"""A scripted fake of the Augment API that Auggie (@augmentcode/auggie) talks to, for driving it offline.

Auggie reaches its tenant URL (AUGMENT_SESSION_AUTH='{"accessToken":"x","tenantURL":"http://127.0.0.1:PORT/"}')
with POST requests: get-models (the model list and feature flags), settings and remote-tool lists, and
chat-stream, whose answer is newline-delimited JSON chunks {"text", "nodes", "stop_reason"}. Response node
types (Auggie's own converters in augment.mjs): 0 raw text, 5 tool_use {tool_use_id, tool_name, input_json},
8 thinking {summary}, 10 token_usage {input_tokens, output_tokens, ...}; stop_reason 1 END_TURN,
3 TOOL_USE_REQUESTED. A request carries the typed text as a text node (type 0, text_node.content) and earlier turns in
"chat_history";
tool results come back as request nodes of type 1 (tool_result_node).

Listens on 127.0.0.1 only (FAKE_PORT, default 18766); every request is appended to $FAKE_LOG as one JSON
line. Scripted by $FAKE_SCRIPT in testdata/agents/fakemodel.py's format: [{"match", "replies": [[block...]]}]
with blocks {"text"}, {"thinking"}, {"tool": NAME, "input": {...}}. The reply index is the number of
model turns since the exchange whose typed message matched.
"""
import json
import os
import sys
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(os.environ.get("FAKE_PORT", "18766"))

# The script format and the request log are fakemodel.py's (FAKE_SCRIPT, FAKE_LOG).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from fakemodel import load_script, log  # noqa: E402


def typed_text(message, nodes):
    """What the person typed in a request or an exchange: its text nodes (type 0), else "message"."""
    parts = [(n.get("text_node") or {}).get("content", "") for n in nodes or [] if n.get("type") == 0]
    text = "\n".join(p for p in parts if p)
    return text or message or ""


def typed_and_index(body):
    """The latest typed message and how many model turns followed it."""
    text = typed_text(body.get("message"), body.get("nodes"))
    if text.strip():
        return text, 0
    history = body.get("chat_history") or []
    for i in range(len(history) - 1, -1, -1):
        h = history[i]
        text = typed_text(h.get("request_message"), h.get("request_nodes"))
        if text.strip():
            return text, len(history) - i
    return "", 0


def reply_for(body):
    text, index = typed_and_index(body)
    for entry in load_script():
        if entry.get("side") or entry.get("match", "\x00") not in text:
            continue
        replies = entry.get("replies", [])
        if index < len(replies):
            return replies[index], text, index
        return [{"text": entry.get("done", "Done.")}], text, index
    return [{"text": "ok"}], text, index


def chunks(blocks, body):
    out, nodes, node_id = [], [], 1
    stop = 1
    for b in blocks:
        if "thinking" in b:
            out.append({"text": "", "nodes": [{"id": node_id, "type": 8, "content": "", "thinking": {"summary": b["thinking"]}}]})
            node_id += 1
        elif "text" in b:
            t = b["text"]
            for i in range(0, len(t), 40):
                out.append({"text": t[i:i + 40]})
            nodes.append({"id": node_id, "type": 0, "content": t})
            node_id += 1
        elif "tool" in b:
            nodes.append({"id": node_id, "type": 5, "content": "", "tool_use": {
                "tool_use_id": "toolu_" + uuid.uuid4().hex[:20], "tool_name": b["tool"],
                "input_json": json.dumps(b.get("input", {}), ensure_ascii=False)}})
            node_id += 1
            stop = 3
    size = len(json.dumps(body))
    nodes.append({"id": node_id, "type": 10, "content": "", "token_usage": {
        "input_tokens": size // 4, "output_tokens": sum(len(json.dumps(b)) for b in blocks) // 4,
        "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}})
    out.append({"text": "", "nodes": nodes, "stop_reason": stop})
    return out


GET_MODELS = {
    "default_model": "fake-model",
    "models": [{"name": "fake-model", "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}],
    "languages": [],
    "feature_flags": {},
    "user_tier": "PROFESSIONAL_TIER",
    "user": {"id": "fake-user", "email": "dev@example.com"},
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _reply(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802
        log({"method": "GET", "path": self.path})
        self._reply({})

    def do_POST(self):  # noqa: N802
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.lstrip("/")
        entry = {"method": "POST", "path": path, "body": body}
        if path == "get-models":
            log(entry)
            return self._reply(GET_MODELS)
        if path == "agents/list-remote-tools":
            log(entry)
            return self._reply({"tools": []})
        if path in ("chat-stream", "prompt-enhancer"):
            blocks, text, index = reply_for(body)
            entry.update({"match": text[:80], "step": index, "reply": blocks})
            log(entry)
            lines = b"".join(json.dumps(c, ensure_ascii=False).encode() + b"\n" for c in chunks(blocks, body))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Content-Length", str(len(lines)))
            self.end_headers()
            self.wfile.write(lines)
            return
        log(entry)
        self._reply({})

    def log_message(self, *a):
        pass


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
