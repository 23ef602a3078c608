# Drives svc's PostgreSQL endpoint with psycopg2 (Debian python3-psycopg2, unchanged): parameters interpolated
# client-side and sent over the simple protocol, a transaction opened implicitly and committed, typed reads,
# several statements in one execute, and an error with its SQLSTATE. Prints one JSON object.
import datetime
import json
import sys

import psycopg2

port = int(sys.argv[1])
out = {}
conn = psycopg2.connect(host="127.0.0.1", port=port, user="admin", password="quest", dbname="qdb")
cur = conn.cursor()
cur.execute("create table p2 (ts timestamp, v double, s symbol) timestamp(ts) partition by day")
conn.commit()
cur.executemany("insert into p2 values (%s, %s, %s)", [(datetime.datetime(2024, 1, 1, k), k * 0.5, "a" if k % 2 else "b") for k in range(10)])
conn.commit()
cur.execute("select s, count(*), sum(v) from p2 where ts >= %s group by s order by s", (datetime.datetime(2024, 1, 1, 2),))
out["grouped"] = [list(row) for row in cur.fetchall()]
cur.execute("select ts, v from p2 order by ts limit 2")
out["typed"] = [[row[0].isoformat(), row[1]] for row in cur.fetchall()]
cur.execute("select 1; select 2 x")
out["lastOfMany"] = cur.fetchall()
try:
    cur.execute("select * from nowhere")
except psycopg2.Error as error:
    out["error"] = {"pgcode": error.pgcode, "position": error.diag.statement_position}
    conn.rollback()
cur.execute("select count(*) from p2")
out["count"] = cur.fetchone()[0]
conn.close()
print(json.dumps(out))
