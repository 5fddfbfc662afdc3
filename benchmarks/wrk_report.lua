-- Loaded by bench_pages.py into wrk (-s): at the end of a run, print one line of JSON that the benchmark
-- reads, since wrk's own report gives the 50th, 75th, 90th and 99th percentiles but not the 95th.
-- Latencies are in microseconds; "status" counts answers of 400 and above.

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_PAGES_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d, ' ..
    '"mean_us": %.1f, "p50_us": %d, "p95_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
