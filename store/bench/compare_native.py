#!/usr/bin/env python3
"""Side-by-side: recall's search path (recall bench, wazero) vs native SQLite
running Hermes Agent's own session-search SQL (seed section 4 / spec §6) on
the same database file, in one run.

    python3 store/bench/compare_native.py --recall ./recall --db corpus.db [--reps 15] [QUERY ...]

Native side: Python's sqlite3 module (the machine's native libsqlite3). Each
query goes through a port of Hermes's _sanitize_fts5_query and its routing:
no CJK -> messages_fts ORDER BY bm25 LIMIT 50; CJK with every CJK token >= 3
characters -> messages_fts_trigram, same SQL; shorter CJK tokens -> the LIKE
fallback ORDER BY timestamp DESC LIMIT 50. The ratio is recall's final
(bm25-ranked) median over native's median; the summary line is the geometric
mean over all queries.
"""
import argparse, json, math, re, sqlite3, statistics, subprocess, sys, time

# synth.BenchQueries (store/synth/bench.go): the mixed set over a `recall gen` corpus.
DEFAULT_QUERIES = ["zenkowitz", "鲲鹏", "brontide", "error", "the", "d*", "co*", "docker network",
                   "postgres OR redis", '"connection refused"', "部署", "内存泄漏", "修改youer服务端", "youer"]

CJK = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\uac00-\ud7af]")

def sanitize(q):  # Hermes v21 _sanitize_fts5_query (spec §6.1)
    q = q[:2048]
    held = []
    out, i = [], 0
    while i < len(q):
        if q[i] == '"':
            j = q.find('"', i + 1)
            if j >= 0:
                held.append(q[i:j + 1]); out.append("\x00Q%d\x00" % (len(held) - 1)); i = j + 1; continue
            out.append(" "); i += 1; continue
        out.append(q[i]); i += 1
    s = "".join(out)
    s = re.sub(r'[+{}():"^]', " ", s)
    s = re.sub(r"\*+", "*", s)
    s = re.sub(r"(^|\s)\*", r"\1", s)
    s = s.strip()
    s = re.sub(r"(?i)^(AND|OR|NOT)\b\s*", "", s)
    s = re.sub(r"(?i)\s+(AND|OR|NOT)\s*$", "", s)
    s = re.sub(r"\b(\w+(?:[._-]\w+)+)\b", r'"\1"', s)
    for n, h in enumerate(held):
        s = s.replace("\x00Q%d\x00" % n, h)
    return s.strip()

SELECT = """SELECT m.session_id, m.role, m.content, m.timestamp, s.source, s.model,
       s.started_at AS session_started, bm25({t}) AS relevance_score
FROM {t} JOIN messages m ON {t}.rowid = m.id JOIN sessions s ON m.session_id = s.id
WHERE {t} MATCH ? ORDER BY bm25({t}) LIMIT 50 OFFSET 0"""

def hermes_search(db, query):
    q = sanitize(query)
    if not q:
        return 0, "none"
    if CJK.search(q):
        raw = q.strip('"').strip()
        toks = [t for t in raw.split() if t not in ("AND", "OR", "NOT") and CJK.search(t)]
        if sum(1 for c in raw if CJK.match(c)) >= 3 and all(sum(1 for c in t if CJK.match(c)) >= 3 for t in toks):
            tq = " ".join(t if t in ("AND", "OR", "NOT") else '"' + t.replace('"', '""') + '"' for t in raw.split())
            try:
                return len(db.execute(SELECT.format(t="messages_fts_trigram"), (tq,)).fetchall()), "trigram"
            except sqlite3.OperationalError:
                pass
        toks = [t for t in raw.split() if t not in ("AND", "OR", "NOT")] or [raw]
        clauses, args = [], []
        for t in toks:
            p = "%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            clauses.append("(m.content LIKE ? ESCAPE '\\' OR m.tool_name LIKE ? ESCAPE '\\' OR m.tool_calls LIKE ? ESCAPE '\\')")
            args += [p, p, p]
        sql = ("SELECT m.session_id, m.role, substr(m.content, max(1, instr(m.content, ?) - 40), 120), m.timestamp, s.source, s.model "
               "FROM messages m JOIN sessions s ON s.id = m.session_id WHERE " + " OR ".join(clauses) +
               " ORDER BY m.timestamp DESC LIMIT 50 OFFSET 0")
        return len(db.execute(sql, [toks[0]] + args).fetchall()), "like"
    try:
        return len(db.execute(SELECT.format(t="messages_fts"), (q,)).fetchall()), "unicode61"
    except sqlite3.OperationalError:
        return 0, "error"

def median_ms(f, reps):
    f()  # warm-up
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--recall", default="./recall")
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("queries", nargs="*")
    a = ap.parse_args()
    queries = a.queries or DEFAULT_QUERIES
    db = sqlite3.connect("file:%s?mode=ro" % a.db, uri=True)
    native = {}
    for q in queries:
        hits, route = hermes_search(db, q)
        native[q] = (median_ms(lambda: hermes_search(db, q), a.reps), hits, route)
    out = subprocess.run([a.recall, "--db", a.db, "bench", "--json", "--reps", str(a.reps)] + queries,
                         check=True, capture_output=True, text=True).stdout
    rec = {r["query"]: r for r in json.loads(out)}
    print("| query | recall index | recall first p50 ms | recall final p50 ms | recall final p99 ms | native route | native p50 ms | ratio final/native |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    logs = []
    for q in queries:
        r, (nms, nhits, route) = rec[q], native[q]
        ratio = r["final_median_ms"] / nms if nms > 0 else float("nan")
        if ratio > 0:
            logs.append(math.log(ratio))
        print("| `%s` | %s | %.2f | %.2f | %.2f | %s | %.2f | %.2f |" % (q, r["index"], r["median_ms"], r["final_median_ms"], r["final_p99_ms"], route, nms, ratio))
    gm = math.exp(sum(logs) / len(logs)) if logs else float("nan")
    print("\ngeometric mean ratio recall/native (final ranked results): %.3f  (sqlite native %s)" % (gm, sqlite3.sqlite_version))

if __name__ == "__main__":
    main()
