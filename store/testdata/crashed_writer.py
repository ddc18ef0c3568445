"""A Hermes-like writer that crashes: python3's sqlite3 module (native SQLite)
builds a Hermes v10 state.db from DDL and seed files, then kills itself with
SIGKILL, either after committing in WAL mode (the commits stay in state.db-wal,
never checkpointed) or in the middle of a rollback-journal transaction (a hot
state.db-journal, the database file already holding half-written pages).

Mode "fresh" crashes inside the first transaction of a new, empty file (as a
creation stopped while switching to WAL leaves it: a hot journal whose
header says the file had no pages).

usage: crashed_writer.py DB wal|journal|fresh DDL_FILE SEED_FILE
"""
import os
import signal
import sqlite3
import sys

path, mode, ddl_file, seed_file = sys.argv[1:5]
c = sqlite3.connect(path, isolation_level=None)
c.execute("PRAGMA synchronous=OFF")  # fast to build; a crash still leaves the -wal/-journal
if mode == "fresh":
    c.execute("PRAGMA cache_size=1")
    c.execute("BEGIN IMMEDIATE")
    c.execute("CREATE TABLE t(x)")
    for i in range(2000):
        c.execute("INSERT INTO t VALUES (?)", ("row %d " % i + "z" * 200,))
    print("ready", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
if mode == "wal":
    c.execute("PRAGMA journal_mode=WAL")
    c.execute("PRAGMA wal_autocheckpoint=0")
with open(ddl_file) as f, open(seed_file) as g:
    c.executescript(f.read() + g.read() + "INSERT INTO schema_version VALUES (10);")
if mode == "wal":
    c.execute("BEGIN IMMEDIATE")
    c.execute("INSERT INTO sessions(id, source, started_at) VALUES ('h-crash', 'cli', 1777641000.0)")
    for i in range(300):
        c.execute("INSERT INTO messages(session_id, role, content, timestamp) VALUES ('h-crash', 'user', ?, ?)",
                  ("crashwal committed docker row %d " % i + "x" * 200, 1777641000.0 + i))
    c.execute("COMMIT")
else:
    c.execute("INSERT INTO sessions(id, source, started_at) VALUES ('h-crash', 'cli', 1777641000.0)")
    for i in range(300):
        c.execute("INSERT INTO messages(session_id, role, content, timestamp) VALUES ('h-crash', 'user', ?, ?)",
                  ("crashjournal committed docker row %d " % i + "x" * 200, 1777641000.0 + i))
    c.execute("PRAGMA cache_size=1")  # spill changed pages into the file mid-transaction
    c.execute("BEGIN IMMEDIATE")
    for i in range(300):
        c.execute("UPDATE messages SET content = ? WHERE session_id = 'h-crash' AND timestamp = ?",
                  ("uncommitted rewrite %d " % i + "y" * 300, 1777641000.0 + i))
print("ready", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
