#!/usr/bin/env python3
"""Makes collected agent files fit for committing: trim.py DIR WORK REPLACEMENT

- every occurrence of WORK (the driver's temporary folder), and of its Claude Code project slug, in file
  contents and names becomes REPLACEMENT,
  so fixtures do not depend on where they were generated;
- in .json/.jsonl files, a string longer than LIMIT characters (system prompts, tool schemas, request
  blobs) keeps its first KEEP characters and a note of how many were cut, so the fixtures stay small
  while every record and field is still there;
- other files larger than 256 KiB are dropped (caches, not session records).
"""
import json
import os
import re
import sys

LIMIT = 1000
KEEP = 300
MAX_OTHER = 256 * 1024


def cut(v):
    if isinstance(v, str):
        if len(v) > LIMIT:
            return v[:KEEP] + "…[trimmed %d chars]" % (len(v) - KEEP)
        return v
    if isinstance(v, list):
        return [cut(x) for x in v]
    if isinstance(v, dict):
        return {k: cut(x) for k, x in v.items()}
    return v


def slug(path):
    """Claude Code's project folder name for a path: every non-alphanumeric character becomes '-'."""
    return re.sub(r"[^A-Za-z0-9]", "-", path)


def fix_text(text, work, repl):
    return text.replace(work, repl).replace(slug(work), slug(repl))


def fix_file(path, work, repl):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        if os.path.getsize(path) > MAX_OTHER:
            os.remove(path)
        return
    text = fix_text(text, work, repl)
    if path.endswith(".jsonl"):
        out = []
        for line in text.split("\n"):
            if not line.strip():
                out.append(line)
                continue
            try:
                out.append(json.dumps(cut(json.loads(line)), ensure_ascii=False, separators=(",", ":")))
            except ValueError:
                out.append(line)
        text = "\n".join(out)
    elif path.endswith(".json"):
        try:
            text = json.dumps(cut(json.loads(text)), ensure_ascii=False, indent=2) + "\n"
        except ValueError:
            pass
    elif len(text.encode()) > MAX_OTHER:
        os.remove(path)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    root, work, repl = sys.argv[1:4]
    for d, dirs, names in os.walk(root, topdown=False):
        for n in names:
            p = os.path.join(d, n)
            if os.path.islink(p):
                os.remove(p)
                continue
            fix_file(p, work, repl)
        for n in names + dirs:
            new = fix_text(n, work, repl)
            if new != n:
                os.rename(os.path.join(d, n), os.path.join(d, new))


if __name__ == "__main__":
    main()
