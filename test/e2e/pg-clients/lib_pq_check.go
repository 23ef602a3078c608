// Drives svc's PostgreSQL endpoint with Go's lib/pq (Debian golang-github-lib-pq-dev, unchanged), the driver of
// Grafana's QuestDB data source: its schema queries, its $__timeFilter expansion (casts of epoch µs), the same
// filter bound as $1/$2 parameters (time.Time, as the pending data source change binds it), SAMPLE BY, and
// DISTINCT with LIMIT. Built in GOPATH mode by test/e2e/pg-lib-pq.test.ts; prints one JSON object.
package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"time"

	_ "github.com/lib/pq"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	dsn := "host=127.0.0.1 port=" + os.Args[1] + " user=admin password=quest dbname=qdb sslmode=disable application_name=grafana connect_timeout=10"
	db, err := sql.Open("postgres", dsn)
	must(err)
	defer db.Close()
	out := map[string]interface{}{}

	_, err = db.Exec("create table sensors (ts timestamp, sym symbol, v double) timestamp(ts) partition by day")
	must(err)
	_, err = db.Exec("insert into sensors select timestamp_sequence('2024-01-01', 60000000L), rnd_symbol('a', 'b'), x from long_sequence(600)")
	must(err)

	var tableName, partitionBy, designated string
	must(db.QueryRow("select table_name, partitionBy, designatedTimestamp from tables() where table_name = 'sensors'").Scan(&tableName, &partitionBy, &designated))
	out["table"] = []string{tableName, partitionBy, designated}

	rows, err := db.Query("select \"column\", type, designated from table_columns('sensors')")
	must(err)
	columns := [][]interface{}{}
	for rows.Next() {
		var name, typ string
		var isDesignated bool
		must(rows.Scan(&name, &typ, &isDesignated))
		columns = append(columns, []interface{}{name, typ, isDesignated})
	}
	out["columns"] = columns

	from := time.Date(2024, 1, 1, 1, 0, 0, 0, time.UTC)
	to := time.Date(2024, 1, 1, 2, 0, 0, 0, time.UTC)
	var castCount, boundCount int64
	must(db.QueryRow(fmt.Sprintf("select count(*) from sensors where ts >= cast(%d as timestamp) AND ts <= cast(%d as timestamp)", from.UnixMicro(), to.UnixMicro())).Scan(&castCount))
	must(db.QueryRow("select count(*) from sensors where ts >= $1 and ts <= $2", from, to).Scan(&boundCount))
	out["timeFilter"] = []int64{castCount, boundCount}

	sampled, err := db.Query(fmt.Sprintf("select ts, avg(v) from sensors where ts >= cast(%d as timestamp) AND ts <= cast(%d as timestamp) sample by 30m", from.UnixMicro(), to.UnixMicro()))
	must(err)
	buckets := [][]interface{}{}
	for sampled.Next() {
		var ts time.Time
		var avg float64
		must(sampled.Scan(&ts, &avg))
		buckets = append(buckets, []interface{}{ts.UTC().Format(time.RFC3339), avg})
	}
	out["sampleBy"] = buckets

	distinct, err := db.Query("select distinct sym from sensors order by sym limit 1000")
	must(err)
	syms := []string{}
	for distinct.Next() {
		var s string
		must(distinct.Scan(&s))
		syms = append(syms, s)
	}
	out["distinct"] = syms

	encoded, err := json.Marshal(out)
	must(err)
	fmt.Println(string(encoded))
}
