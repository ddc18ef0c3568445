#!/usr/bin/env python3
"""A scripted fake model server that lets an agent's own code write real session files offline.

One server speaks the four wire protocols the agents use, chosen by the request path:

  Anthropic Messages      POST /v1/messages (+ /v1/messages/count_tokens)      Claude Code, Cline, ...
  OpenAI chat completions POST /v1/chat/completions, /chat/completions          OpenCode, Qwen Code, Pi, Continue, ...
  OpenAI Responses        POST /v1/responses, /responses                        Codex CLI
  Gemini                  POST /v1beta/models/M:streamGenerateContent?alt=sse,  Gemini CLI
                          :generateContent, :countTokens
  GET /v1/models, /models lists the models named in the script (some agents ask first).

It listens on 127.0.0.1 only (FAKE_PORT, default 18765). Every request is appended as one JSON line to
$FAKE_LOG (default requests.jsonl in the working directory): path, protocol, kind, the reply sent.

The script ($FAKE_SCRIPT, default script.json; re-read on each request) is a JSON list of entries:

  {"match": "substring", "replies": [reply, reply, ...], "done": "closing text"}
  {"side": true, "match": "substring", "replies": [reply]}

A main-loop request (one that offers tools) is answered from the first non-side entry whose "match" occurs
in the latest user message the person typed (not a tool result); the reply index is the number of
assistant turns after that message, so a reply with a tool call is followed, once the agent has sent the
tool's result, by the next reply. When the replies run out, "done" (default "Done.") is sent.
With FAKE_MAIN=always every request is a main-loop request (agents that describe their tools in the
system prompt and send none, such as Cline 2.x with its XML tool calls). Otherwise a request without
tools (titles, summaries, routers, classifiers) is a side request: the first side entry
whose match occurs in the system text or the last message answers it, else a plausible default (a JSON
title when the prompt asks for JSON and a title, a summary for summaries, "ok" otherwise).

A reply is a list of blocks:
  {"text": "..."}                       assistant text (streamed in small deltas)
  {"thinking": "..."}                   reasoning (Anthropic thinking, OpenAI reasoning_content, Responses
                                        reasoning summary, Gemini thought part)
  {"tool": NAME, "input": {...}}        a tool call with JSON arguments ("namespace": NS adds the Responses
                                        function_call's namespace, as Codex names an MCP server's tools)
  {"tool": NAME, "input": "...", "custom": true}
                                        a Responses custom (freeform) tool call, e.g. Codex's apply_patch
  {"sleep": SECONDS}                    delay the reply (to let a person type or interrupt meanwhile)
  {"error": HTTP_STATUS, "message": "..."}
                                        answer this request with an HTTP error instead
Usage (tokens) is reported deterministically from the sizes of the request and the reply.
"""
import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = os.environ.get("FAKE_LOG", "requests.jsonl")
SCRIPT = os.environ.get("FAKE_SCRIPT", "script.json")
PORT = int(os.environ.get("FAKE_PORT", "18765"))
MAIN_ALWAYS = os.environ.get("FAKE_MAIN", "") == "always"
CHUNK = 40  # characters per streamed delta

_lock = threading.Lock()
_counter = [0]


def log(entry):
    with _lock:
        _counter[0] += 1
        entry["n"] = _counter[0]
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")


def load_script():
    try:
        with open(SCRIPT, encoding="utf-8") as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001 - a broken script is reported, the server stays up
        print("script error:", e, file=sys.stderr)
        return []


def new_id(prefix, n=24):
    return prefix + uuid.uuid4().hex[:n]


# ---------------------------------------------------------------------------------------------------
# Normalised conversation: each protocol's request becomes a list of turns
#   {"role": "user"|"assistant"|"tool", "text": str, "typed": bool}
# where typed means a user turn with text the person wrote (not only tool results).


def _text_of_parts(parts, text_types=("text", "input_text", "output_text")):
    if isinstance(parts, str):
        return parts
    out = []
    for p in parts or []:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, dict) and (p.get("type") in text_types or ("text" in p and "type" not in p)):
            out.append(str(p.get("text", "")))
    return "\n".join(out)


def turns_anthropic(body):
    turns = []
    for m in body.get("messages", []):
        c = m.get("content")
        if m.get("role") == "assistant":
            turns.append({"role": "assistant", "text": _text_of_parts(c), "typed": False})
            continue
        blocks = c if isinstance(c, list) else []
        tool = any(isinstance(b, dict) and b.get("type") == "tool_result" for b in blocks)
        turns.append({"role": "tool" if tool else "user", "text": _text_of_parts(c), "typed": not tool})
    return turns


def turns_chat(body):
    turns = []
    for m in body.get("messages", []):
        role = m.get("role")
        if role in ("system", "developer"):
            continue
        if role == "tool" or role == "function":
            turns.append({"role": "tool", "text": _text_of_parts(m.get("content")), "typed": False})
        elif role == "assistant":
            turns.append({"role": "assistant", "text": _text_of_parts(m.get("content")), "typed": False})
        else:
            turns.append({"role": "user", "text": _text_of_parts(m.get("content")), "typed": True})
    return turns


_RESPONSES_ASSISTANT = ("reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call")
_RESPONSES_TOOL = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


def turns_responses(body):
    items = body.get("input")
    if isinstance(items, str):
        return [{"role": "user", "text": items, "typed": True}]
    turns = []
    for it in items or []:
        kind = it.get("type", "message")
        if kind == "message":
            role = it.get("role")
            if role in ("system", "developer"):
                continue
            if role == "assistant":
                turns.append({"role": "assistant", "text": _text_of_parts(it.get("content")), "typed": False})
            else:
                turns.append({"role": "user", "text": _text_of_parts(it.get("content")), "typed": True})
        elif kind in _RESPONSES_ASSISTANT:
            turns.append({"role": "assistant", "text": "", "typed": False})
        elif kind in _RESPONSES_TOOL:
            turns.append({"role": "tool", "text": str(it.get("output", "")), "typed": False})
    # consecutive assistant items (reasoning, message, calls) are one assistant turn
    merged = []
    for t in turns:
        if merged and t["role"] == "assistant" and merged[-1]["role"] == "assistant":
            merged[-1]["text"] += t["text"]
            continue
        merged.append(t)
    return merged


def turns_gemini(body):
    turns = []
    for c in body.get("contents", []):
        parts = c.get("parts", [])
        text = "\n".join(p.get("text", "") for p in parts if isinstance(p, dict) and "text" in p and not p.get("thought"))
        if c.get("role") == "model":
            turns.append({"role": "assistant", "text": text, "typed": False})
            continue
        tool = any(isinstance(p, dict) and "functionResponse" in p for p in parts)
        turns.append({"role": "tool" if tool else "user", "text": text, "typed": not tool and bool(text)})
    return turns


def system_anthropic(body):
    s = body.get("system")
    return _text_of_parts(s) if s else ""


def system_chat(body):
    return "\n".join(_text_of_parts(m.get("content")) for m in body.get("messages", []) if m.get("role") in ("system", "developer"))


def system_responses(body):
    return str(body.get("instructions") or "")


def system_gemini(body):
    si = body.get("systemInstruction") or body.get("system_instruction") or {}
    return "\n".join(p.get("text", "") for p in si.get("parts", []) if isinstance(p, dict))


# ---------------------------------------------------------------------------------------------------
# Choosing the reply


def pick_main(turns):
    script = load_script()
    for i in range(len(turns) - 1, -1, -1):
        t = turns[i]
        if not t["typed"]:
            continue
        for entry in script:
            if entry.get("side") or entry.get("match", "\0") not in t["text"]:
                continue
            step = sum(1 for x in turns[i + 1:] if x["role"] == "assistant")
            replies = entry.get("replies", [])
            if step < len(replies):
                return replies[step], entry["match"], step
            return [{"text": entry.get("done", "Done.")}], entry["match"], step
    return [{"text": "I have no script for this prompt (fake server)."}], None, -1


def pick_side(system, turns, wants_json):
    last = turns[-1]["text"] if turns else ""
    hay = system + "\n" + last
    for entry in load_script():
        if entry.get("side") and entry.get("match", "") in hay:
            return entry.get("replies", [[{"text": "ok"}]])[0], entry.get("match")
    low = hay.lower()
    if "title" in low and (wants_json or "json" in low):
        words = last.split("<session>")[-1].split("</session>")[0].split()
        title = " ".join(words[:4]).rstrip(".?!,") or "Untitled"
        return [{"text": json.dumps({"title": title[:1].upper() + title[1:]}, ensure_ascii=False)}], None
    if "title" in low:
        return [{"text": "Fake session title"}], None
    if "isnewtopic" in low.replace("_", "").replace(" ", ""):
        return [{"text": json.dumps({"isNewTopic": False, "title": None})}], None
    if "summar" in low:
        return [{"text": "<summary>Summary written by the fake server: the user asked questions and the assistant answered with scripted replies.</summary>"}], None
    if wants_json:
        return [{"text": "{}"}], None
    return [{"text": "ok"}], None


def expand(blocks):
    """Runs sleeps, and returns (error block or None, content blocks)."""
    out = []
    for b in blocks:
        if "sleep" in b:
            time.sleep(float(b["sleep"]))
        elif "error" in b:
            return b, []
        else:
            out.append(b)
    return None, out


def chunks(s, n=CHUNK):
    return [s[k:k + n] for k in range(0, len(s), n)] or [""]


def usage_numbers(raw, blocks):
    return max(1, len(raw) // 4), max(1, len(json.dumps(blocks, ensure_ascii=False)) // 4)


# ---------------------------------------------------------------------------------------------------
# The server


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    # -- plumbing --------------------------------------------------------------------------------
    def send_json(self, code, obj):
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", new_id("req_fake_", 12))
        self.end_headers()
        self.wfile.write(data)

    def start_sse(self):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True

    def sse(self, data, event=None):
        head = ("event: %s\n" % event) if event else ""
        payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        self.wfile.write((head + "data: " + payload + "\n\n").encode("utf-8"))
        self.wfile.flush()

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_GET(self):
        path = self.path.split("?")[0]
        log({"t": time.time(), "method": "GET", "path": self.path})
        if path.endswith("/models"):
            names = sorted({e.get("model") for e in load_script() if e.get("model")} | {"fake-model"})
            self.send_json(200, {"object": "list", "data": [{"id": n, "object": "model", "owned_by": "fake"} for n in names],
                                 "models": [{"name": "models/" + n} for n in names]})
            return
        self.send_json(404, {"error": {"message": "fake server: no such endpoint " + path}})

    def do_POST(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        path = self.path.split("?")[0]
        entry = {"t": time.time(), "method": "POST", "path": self.path, "body": body,
                 "headers": {k: v for k, v in self.headers.items() if k.lower() in ("user-agent", "anthropic-beta", "x-app", "originator")}}
        if path.endswith("/count_tokens") or path.endswith(":countTokens"):
            log(entry)
            size = max(1, len(raw) // 4)
            self.send_json(200, {"input_tokens": size, "totalTokens": size})
            return
        for suffix, proto in (("/messages", "anthropic"), ("/chat/completions", "chat"), ("/responses", "responses"),
                              (":streamGenerateContent", "gemini"), (":generateContent", "gemini")):
            if path.endswith(suffix):
                return self.answer(proto, body, raw, entry)
        log(entry)
        self.send_json(404, {"error": {"message": "fake server: no such endpoint " + path}})

    # -- one model call ----------------------------------------------------------------------------
    def answer(self, proto, body, raw, entry):
        turns = {"anthropic": turns_anthropic, "chat": turns_chat, "responses": turns_responses, "gemini": turns_gemini}[proto](body)
        system = {"anthropic": system_anthropic, "chat": system_chat, "responses": system_responses, "gemini": system_gemini}[proto](body)
        has_tools = bool(body.get("tools"))
        gen_cfg = body.get("generationConfig") or {}
        wants_json = bool(gen_cfg.get("responseSchema") or gen_cfg.get("responseJsonSchema")
                          or "json" in str(gen_cfg.get("responseMimeType", "")).lower()
                          or (body.get("response_format") or {}).get("type", "").startswith("json")
                          or (body.get("text") or {}).get("format", {}).get("type", "").startswith("json"))
        if has_tools or MAIN_ALWAYS:
            blocks, match, step = pick_main(turns)
            kind = "main"
        else:
            (blocks, match), step, kind = pick_side(system, turns, wants_json), 0, "side"
        err, blocks = expand(blocks)
        entry.update({"protocol": proto, "kind": kind, "match": match, "step": step, "reply": blocks})
        log(entry)
        if err:
            self.send_json(int(err["error"]), {"error": {"type": "fake_error", "message": err.get("message", "fake error"), "code": int(err["error"])}})
            return
        model = body.get("model") or self.path.split("/models/")[-1].split(":")[0] or "fake-model"
        in_tok, out_tok = usage_numbers(raw, blocks)
        stream = body.get("stream", proto == "gemini" and "streamGenerateContent" in self.path)
        getattr(self, "reply_" + proto)(body, model, blocks, in_tok, out_tok, stream)

    # -- Anthropic Messages ------------------------------------------------------------------------
    def reply_anthropic(self, body, model, blocks, in_tok, out_tok, stream):
        content = []
        for b in blocks:
            if "text" in b:
                content.append({"type": "text", "text": b["text"]})
            elif "thinking" in b:
                content.append({"type": "thinking", "thinking": b["thinking"], "signature": new_id("fake-signature-", 32)})
            elif "tool" in b:
                content.append({"type": "tool_use", "id": new_id("toolu_"), "name": b["tool"], "input": b.get("input", {})})
        stop = "tool_use" if any(c["type"] == "tool_use" for c in content) else "end_turn"
        msg_id = new_id("msg_fake_", 20)
        usage = {"input_tokens": in_tok, "output_tokens": out_tok, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if not stream:
            self.send_json(200, {"id": msg_id, "type": "message", "role": "assistant", "model": model, "content": content,
                                 "stop_reason": stop, "stop_sequence": None, "usage": usage})
            return
        self.start_sse()
        ev = lambda name, obj: self.sse(obj, name)  # noqa: E731
        ev("message_start", {"type": "message_start", "message": {"id": msg_id, "type": "message", "role": "assistant", "model": model,
                                                                  "content": [], "stop_reason": None, "stop_sequence": None,
                                                                  "usage": dict(usage, output_tokens=1)}})
        ev("ping", {"type": "ping"})
        for i, c in enumerate(content):
            if c["type"] == "text":
                ev("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
                for part in chunks(c["text"]):
                    ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": part}})
            elif c["type"] == "thinking":
                ev("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "thinking", "thinking": "", "signature": ""}})
                for part in chunks(c["thinking"]):
                    ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "thinking_delta", "thinking": part}})
                ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "signature_delta", "signature": c["signature"]}})
            else:
                ev("content_block_start", {"type": "content_block_start", "index": i,
                                           "content_block": {"type": "tool_use", "id": c["id"], "name": c["name"], "input": {}}})
                for part in chunks(json.dumps(c["input"], ensure_ascii=False), 30):
                    ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": part}})
            ev("content_block_stop", {"type": "content_block_stop", "index": i})
        ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": out_tok}})
        ev("message_stop", {"type": "message_stop"})

    # -- OpenAI chat completions -------------------------------------------------------------------
    def reply_chat(self, body, model, blocks, in_tok, out_tok, stream):
        text = "".join(b["text"] for b in blocks if "text" in b)
        thinking = "".join(b["thinking"] for b in blocks if "thinking" in b)
        calls = [{"id": new_id("call_"), "type": "function",
                  "function": {"name": b["tool"], "arguments": b["input"] if isinstance(b.get("input"), str) else json.dumps(b.get("input", {}), ensure_ascii=False)}}
                 for b in blocks if "tool" in b]
        finish = "tool_calls" if calls else "stop"
        cid, created = new_id("chatcmpl-"), int(time.time())
        usage = {"prompt_tokens": in_tok, "completion_tokens": out_tok, "total_tokens": in_tok + out_tok}
        if not stream:
            msg = {"role": "assistant", "content": text or None}
            if thinking:
                msg["reasoning_content"] = thinking
            if calls:
                msg["tool_calls"] = calls
            self.send_json(200, {"id": cid, "object": "chat.completion", "created": created, "model": model,
                                 "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage})
            return
        self.start_sse()

        def chunk(delta, finish_reason=None, **extra):
            obj = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
            obj.update(extra)
            self.sse(obj)

        chunk({"role": "assistant", "content": ""})
        for part in chunks(thinking) if thinking else []:
            chunk({"reasoning_content": part})
        for part in chunks(text) if text else []:
            chunk({"content": part})
        for i, c in enumerate(calls):
            chunk({"tool_calls": [{"index": i, "id": c["id"], "type": "function", "function": {"name": c["function"]["name"], "arguments": ""}}]})
            for part in chunks(c["function"]["arguments"], 30):
                chunk({"tool_calls": [{"index": i, "function": {"arguments": part}}]})
        chunk({}, finish)
        if (body.get("stream_options") or {}).get("include_usage"):
            self.sse({"id": cid, "object": "chat.completion.chunk", "created": created, "model": model, "choices": [], "usage": usage})
        self.sse("[DONE]")

    # -- OpenAI Responses --------------------------------------------------------------------------
    def reply_responses(self, body, model, blocks, in_tok, out_tok, stream):
        items = []
        for b in blocks:
            if "thinking" in b:
                items.append({"type": "reasoning", "id": new_id("rs_"), "summary": [{"type": "summary_text", "text": b["thinking"]}], "content": None,
                              "encrypted_content": None})
            elif "text" in b:
                items.append({"type": "message", "id": new_id("msg_"), "role": "assistant", "status": "completed",
                              "content": [{"type": "output_text", "text": b["text"], "annotations": []}]})
            elif "tool" in b and b.get("custom"):
                items.append({"type": "custom_tool_call", "id": new_id("ctc_"), "call_id": new_id("call_"), "name": b["tool"],
                              "input": b.get("input", ""), "status": "completed"})
            elif "tool" in b:
                args = b["input"] if isinstance(b.get("input"), str) else json.dumps(b.get("input", {}), ensure_ascii=False)
                items.append({"type": "function_call", "id": new_id("fc_"), "call_id": new_id("call_"), "name": b["tool"],
                              "arguments": args, "status": "completed"})
                if b.get("namespace"):  # Codex 0.171 calls an MCP tool as name + namespace ("mcp__recall")
                    items[-1]["namespace"] = b["namespace"]
        rid = new_id("resp_")
        usage = {"input_tokens": in_tok, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": out_tok,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": in_tok + out_tok}
        base = {"id": rid, "object": "response", "created_at": int(time.time()), "model": model, "status": "in_progress", "output": []}
        if not stream:
            self.send_json(200, dict(base, status="completed", output=items, usage=usage))
            return
        self.start_sse()
        seq = [0]

        def ev(name, obj):
            obj = dict(obj, type=name, sequence_number=seq[0])
            seq[0] += 1
            self.sse(obj, name)

        ev("response.created", {"response": base})
        ev("response.in_progress", {"response": base})
        for i, it in enumerate(items):
            if it["type"] == "message":
                ev("response.output_item.added", {"output_index": i, "item": dict(it, status="in_progress", content=[])})
                part = {"type": "output_text", "text": "", "annotations": []}
                ev("response.content_part.added", {"item_id": it["id"], "output_index": i, "content_index": 0, "part": part})
                text = it["content"][0]["text"]
                for d in chunks(text):
                    ev("response.output_text.delta", {"item_id": it["id"], "output_index": i, "content_index": 0, "delta": d})
                ev("response.output_text.done", {"item_id": it["id"], "output_index": i, "content_index": 0, "text": text})
                ev("response.content_part.done", {"item_id": it["id"], "output_index": i, "content_index": 0, "part": dict(part, text=text)})
            elif it["type"] == "reasoning":
                ev("response.output_item.added", {"output_index": i, "item": dict(it, summary=[])})
                text = it["summary"][0]["text"]
                ev("response.reasoning_summary_part.added", {"item_id": it["id"], "output_index": i, "summary_index": 0,
                                                            "part": {"type": "summary_text", "text": ""}})
                for d in chunks(text):
                    ev("response.reasoning_summary_text.delta", {"item_id": it["id"], "output_index": i, "summary_index": 0, "delta": d})
                ev("response.reasoning_summary_text.done", {"item_id": it["id"], "output_index": i, "summary_index": 0, "text": text})
                ev("response.reasoning_summary_part.done", {"item_id": it["id"], "output_index": i, "summary_index": 0,
                                                           "part": {"type": "summary_text", "text": text}})
            elif it["type"] == "function_call":
                ev("response.output_item.added", {"output_index": i, "item": dict(it, arguments="", status="in_progress")})
                for d in chunks(it["arguments"], 30):
                    ev("response.function_call_arguments.delta", {"item_id": it["id"], "output_index": i, "delta": d})
                ev("response.function_call_arguments.done", {"item_id": it["id"], "output_index": i, "arguments": it["arguments"]})
            else:  # custom_tool_call
                ev("response.output_item.added", {"output_index": i, "item": dict(it, input="", status="in_progress")})
                for d in chunks(it["input"], 30):
                    ev("response.custom_tool_call_input.delta", {"item_id": it["id"], "output_index": i, "delta": d})
                ev("response.custom_tool_call_input.done", {"item_id": it["id"], "output_index": i, "input": it["input"]})
            ev("response.output_item.done", {"output_index": i, "item": it})
        ev("response.completed", {"response": dict(base, status="completed", output=items, usage=usage)})

    # -- Gemini ------------------------------------------------------------------------------------
    def reply_gemini(self, body, model, blocks, in_tok, out_tok, stream):
        parts = []
        for b in blocks:
            if "thinking" in b:
                parts.append({"text": b["thinking"], "thought": True})
            elif "text" in b:
                parts.append({"text": b["text"]})
            elif "tool" in b:
                parts.append({"functionCall": {"id": new_id("fc-", 16), "name": b["tool"], "args": b.get("input", {})}})
        usage = {"promptTokenCount": in_tok, "candidatesTokenCount": out_tok, "totalTokenCount": in_tok + out_tok}

        def response(ps, finish):
            cand = {"content": {"role": "model", "parts": ps}, "index": 0}
            if finish:
                cand["finishReason"] = "STOP"
            return {"candidates": [cand], "usageMetadata": usage, "modelVersion": model, "responseId": new_id("", 20)}

        if not stream:
            self.send_json(200, response(parts, True))
            return
        self.start_sse()
        pieces = []
        for p in parts:
            if "text" in p:
                pieces += [dict(p, text=t) for t in chunks(p["text"])]
            else:
                pieces.append(p)
        for i, p in enumerate(pieces):
            self.sse(response([p], i == len(pieces) - 1))
        if not pieces:
            self.sse(response([{"text": ""}], True))


def main():
    srv = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    print("fake model server on 127.0.0.1:%d, script %s, log %s" % (srv.server_address[1], SCRIPT, LOG), flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
