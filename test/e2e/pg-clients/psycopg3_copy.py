# COPY FROM STDIN through psycopg 3's copy API (text format rows written by write_row): 10,000 rows, then the
# table's count and sum. Prints one JSON object for test/e2e/pg-copy.test.ts.
import datetime
import json
import sys

import psycopg

with psycopg.connect(f"host=127.0.0.1 port={sys.argv[1]} user=admin password=quest dbname=qdb", autocommit=True) as conn:
    cur = conn.cursor()
    with cur.copy("COPY bulk FROM STDIN") as copy:
        for k in range(10000):
            copy.write_row((datetime.datetime(2024, 2, 1) + datetime.timedelta(seconds=k), k * 0.5, f"s{k % 3}", None if k % 10 == 0 else k))
    copied = cur.rowcount
    cur.execute("select count(*), sum(n), count(n), min(ts), max(ts) from bulk")
    count, total, non_null, first, last = cur.fetchone()
    print(json.dumps({"copied": copied, "count": count, "sum": total, "nonNull": non_null, "first": first.isoformat(), "last": last.isoformat()}))
