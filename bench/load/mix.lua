-- wrk script for bench/load.bench.ts. LOAD_MODE=select sends small `select ... limit 10` queries (three
-- shapes in turn); LOAD_MODE=insert sends single-row inserts with ids unique per thread. done() prints one
-- JSON line with the latency percentiles (ms), requests, errors and duration for the bench to parse.
local mode = os.getenv("LOAD_MODE") or "select"
local threads = {}
local counter = 0

local function encode(text)
  return (text:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

local selects = {
  "select * from load_t limit 10",
  "select id, sym, price from load_t where sym = 'S7' limit 10",
  "select id, price, ts from load_t limit -10",
}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
end

function request()
  counter = counter + 1
  local sql
  if mode == "insert" then
    local id = tid * 1000000000 + counter
    sql = string.format("insert into load_t values (%d, 'S%d', %d.5, '2024-02-01T00:00:00.000000Z')", id, id % 100, id % 1000)
  else
    sql = selects[(counter % #selects) + 1]
  end
  return wrk.format("GET", "/exec?query=" .. encode(sql))
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"mode":"%s","requests":%d,"durationUs":%d,"p50Ms":%.3f,"p90Ms":%.3f,"p99Ms":%.3f,"maxMs":%.3f,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"statusErrors":%d,"timeouts":%d}\n',
    mode, summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
