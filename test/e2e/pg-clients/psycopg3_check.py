# Drives svc's PostgreSQL endpoint with psycopg 3 (Debian python3-psycopg, unchanged): server-side binding over
# the extended protocol, every type written with parameters and read back in text and binary format (NULLs
# included), executemany, named prepared statements, an implicit transaction, and an error with its position.
# Prints one JSON object; test/e2e/pg-psycopg.test.ts asserts on it.
import datetime
import json
import sys
import uuid

import psycopg

port = int(sys.argv[1])
dsn = f"host=127.0.0.1 port={port} user=admin password=quest dbname=qdb"
out = {}

ROW = (datetime.datetime(2024, 1, 1, 1, 2, 3, 456789), 7, 2**40, 1.25, 0.5, True, "héllo ✓", "sym",
       uuid.UUID("12345678-1234-5678-1234-567812345678"), 3, 4, "x", b"\x00\x01\xff", datetime.datetime(2024, 1, 2), "10.1.2.3")
NULLS = (datetime.datetime(2024, 1, 1, 1, 2, 4), None, None, None, None, False, None, None, None, 0, 0, None, None, None, None)

with psycopg.connect(dsn, autocommit=True) as conn:
    cur = conn.cursor()
    cur.execute("create table types (ts timestamp, i int, l long, d double, f float, b boolean, s varchar, sy symbol, "
                "u uuid, sh short, by byte, c char, bin binary, dt date, ip ipv4) timestamp(ts) partition by day")
    placeholders = ", ".join(["%s"] * len(ROW))
    cur.execute(f"insert into types values ({placeholders})", ROW)
    cur.execute(f"insert into types values ({placeholders})", NULLS)
    reads = {}
    for binary in (False, True):
        c = conn.cursor(binary=binary)
        c.execute("select * from types where ts >= %s order by ts", (datetime.datetime(2024, 1, 1),))
        reads["binary" if binary else "text"] = [[repr(v) for v in row] for row in c.fetchall()]
        out["oids"] = [d.type_code for d in c.description]
    out["reads"] = reads
    out["written"] = [[repr(v) for v in ROW], [repr(v) for v in NULLS]]

    # Server-side binding: the value never becomes SQL text, so quotes need no escaping.
    cur.execute("select %s::int + 1 n, %s s", (41, "it's; drop table types"))
    out["bound"] = list(cur.fetchone())

    cur.execute("create table many (ts timestamp, v long) timestamp(ts) partition by day")
    cur.executemany("insert into many values (%s, %s)", [(datetime.datetime(2024, 2, 1) + datetime.timedelta(seconds=k), k) for k in range(200)])
    cur.execute("select count(*), sum(v) from many")
    out["many"] = list(cur.fetchone())

    # A named prepared statement, executed many times with new parameters (Bind only).
    sums = []
    for k in range(8):
        cur.execute("select count(*) from many where v < %s", (k * 10,), prepare=True)
        sums.append(cur.fetchone()[0])
    out["prepared"] = sums

    try:
        cur.execute("select nope from many")
    except psycopg.Error as error:
        out["error"] = {"sqlstate": error.sqlstate, "position": error.diag.statement_position, "message": error.diag.message_primary}

    # The time filter as Grafana binds it: $1, $2 timestamps.
    cur.execute("select count(*) from many where ts >= %s and ts <= %s",
                (datetime.datetime(2024, 2, 1, 0, 0, 10), datetime.datetime(2024, 2, 1, 0, 0, 19)))
    out["timeFilter"] = cur.fetchone()[0]

# Without autocommit psycopg opens a transaction (BEGIN) and commits it; status goes T then I.
with psycopg.connect(dsn) as conn:
    with conn.cursor() as cur:
        cur.execute("insert into many values (%s, %s)", (datetime.datetime(2024, 3, 1), 1000))
        out["inTransaction"] = conn.info.transaction_status.name
    conn.commit()
    out["afterCommit"] = conn.info.transaction_status.name
    out["countAfter"] = conn.execute("select count(*) from many").fetchone()[0]

print(json.dumps(out))
