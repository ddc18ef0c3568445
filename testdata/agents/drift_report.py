#!/usr/bin/env python3
"""drift_report.py AGENT COMMITTED NEW IMPORT_JSON: what drift.sh prints for one agent.

COMMITTED and NEW are fixture folders (manifest.json + home/). Every JSON Lines record (and every whole-file
JSON document) under home/ gets a kind: its "type" (plus "subtype", or a Codex payload's "type"); the
report lists the kinds and, per kind, the fields (top level and, for Codex, payload) that NEW has and
COMMITTED does not. IMPORT_JSON is `recall import --json all` run on NEW: its skipped and malformed counts
and problems are shown. Exit status 1 when something drifted (a new kind or field, or a malformed record).
"""
import json
import os
import re
import sys


def kind_of(rec):
    if not isinstance(rec, dict):
        return "(not an object)", set()
    fields = set(rec.keys())
    k = rec.get("type")
    if k is None:
        if "$set" in rec:
            return "$set", {"$set." + f for f in rec["$set"]} if isinstance(rec["$set"], dict) else fields
        if "$rewindTo" in rec:
            return "$rewindTo", fields
        return "(untyped)", fields
    k = str(k)
    if isinstance(rec.get("subtype"), str):
        k += "/" + rec["subtype"]
    payload = rec.get("payload")
    if isinstance(payload, dict):
        if isinstance(payload.get("type"), str):
            k += "/" + payload["type"]
        fields |= {"payload." + f for f in payload}
    return k, fields


def sqlite_events(path):
    import sqlite3
    try:
        db = sqlite3.connect("file:" + path + "?mode=ro", uri=True)
        rows = db.execute("SELECT event_json FROM transcript_events WHERE event_json IS NOT NULL").fetchall()
        db.close()
    except sqlite3.Error:
        return []
    out = []
    for (text,) in rows:
        try:
            out.append(json.loads(text))
        except ValueError:
            out.append("(invalid JSON row)")
    return out


def scan(folder):
    kinds = {}
    home = os.path.join(folder, "home")
    for root, _, names in os.walk(home):
        for n in names:
            path = os.path.join(root, n)
            if n.endswith(".jsonl"):
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        line = line.strip()
                        if not line:
                            continue
                        try:
                            rec = json.loads(line)
                        except ValueError:
                            kinds.setdefault("(invalid JSON line)", set())
                            continue
                        k, fields = kind_of(rec)
                        kinds.setdefault(k, set()).update(fields)
            elif n.endswith(".sqlite"):
                # OpenClaw's agent database keeps its transcript records verbatim in transcript_events
                # (the zstd-compressed ones, event_json NULL, are not read here).
                for rec in sqlite_events(path):
                    k, fields = kind_of(rec)
                    kinds.setdefault(k, set()).update(fields)
            elif n.endswith(".json"):
                # a file named by its session's id (Auggie's <uuid>.json) is one kind, whatever the id
                n = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "*", n)
                kinds.setdefault("file " + n if not n.startswith(("session-", "agent-")) else "file " + n.split("-")[0] + "-*.json", set())
    return kinds


def version(folder):
    try:
        with open(os.path.join(folder, "manifest.json")) as f:
            return json.load(f).get("version", "?")
    except (OSError, ValueError):
        return "?"


def main():
    agent, committed, new, imp = sys.argv[1:5]
    old_k, new_k = scan(committed), scan(new)
    drift = False
    print("%s: committed fixtures %s, newest release %s" % (agent, version(committed), version(new)))
    for k in sorted(new_k):
        if k not in old_k:
            drift = True
            print("  new record kind: %s (fields: %s)" % (k, ", ".join(sorted(new_k[k]))))
            continue
        extra = new_k[k] - old_k[k]
        if extra:
            drift = True
            print("  %s: new fields %s" % (k, ", ".join(sorted(extra))))
    gone = sorted(set(old_k) - set(new_k))
    if gone:
        print("  kinds the new release did not write in these scenarios: %s" % ", ".join(gone))
    try:
        with open(imp) as f:
            reports = json.load(f)
    except (OSError, ValueError) as e:
        print("  recall import: no report (%s)" % e)
        return 1
    if isinstance(reports, dict):
        reports = [reports]
    for r in reports:
        if not isinstance(r, dict):
            continue
        src = r.get("source", "?")
        files = r.get("files", 0) or 0
        if not files and not r.get("malformed"):
            continue
        print("  recall import %s: %s files, %s sessions, %s messages, %s skipped, %s malformed" % (
            src, files, r.get("sessions", 0), r.get("messages", 0), r.get("skipped", 0), r.get("malformed", 0)))
        for p in (r.get("problems") or [])[:10]:
            print("    problem: %s" % p)
        if r.get("malformed"):
            drift = True
    if not drift:
        print("  no drift")
    return 1 if drift else 0


if __name__ == "__main__":
    sys.exit(main())
