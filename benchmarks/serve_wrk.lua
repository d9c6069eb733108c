-- wrk script for `shengji serve`: POST /decide with real request bodies, one per line of
-- the file BODIES (default /tmp/bodies.jsonl), cycled. Write the file with
--   python benchmarks/serve_load.py --write-bodies /tmp/bodies.jsonl
-- then: taskset -c 1 wrk -t2 -c50 -d20s --latency -s benchmarks/serve_wrk.lua http://127.0.0.1:PORT/decide
local path = os.getenv("BODIES") or "/tmp/bodies.jsonl"
local bodies = {}
for line in io.lines(path) do bodies[#bodies + 1] = line end
local index = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  index = index % #bodies + 1
  return wrk.format(nil, "/decide", nil, bodies[index])
end
