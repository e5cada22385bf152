#!/usr/bin/env bash
# Side-by-side speed check of mcpdiff (issue 7), in one run on one machine:
#   1. wrk's request rate against `mcpdiff serve` (release) with one fixed conformant request
#      vs mcpdiff's own judged cases per second against the same server, and their ratio;
#   2. judge: Verdicts per second on one thread;
#   3. time to the first finding of each mutant's named rule with default `run` settings;
#   4. peak memory (max RSS) of a 100,000-case run, and of a 10,000-case run to show it does
#      not grow with the number of cases.
# Prints PASS/FAIL per target and exits 1 if any target is missed (2 if it could not run).
#
# Usage: benches/side_by_side.sh        (from anywhere; builds in the repository)
# Env:   WRK_SECS (5), RUN_CASES (40000), MEM_CASES (100000), WRK_CONNS (8), ROUNDS (5)
#
# (a) and (b) alternate ROUNDS times and the median ratio is the figure: on a shared machine
# the load changes from second to second, and one pair of runs can land on different loads.
set -u
cd "$(dirname "$0")/.."

WRK_SECS=${WRK_SECS:-5}
RUN_CASES=${RUN_CASES:-40000}
ROUNDS=${ROUNDS:-5}
MEM_CASES=${MEM_CASES:-100000}
WRK_CONNS=${WRK_CONNS:-8}
BIN=target/release/mcpdiff
TMP=$(mktemp -d /tmp/mcpdiff-bench.XXXXXX)
SERVER_PID=""

cleanup() {
  # only what this script started, by PID
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

say() { printf '%s\n' "$*"; }
die() { say "side_by_side: $*" >&2; exit 2; }

# other work on the machine skews every figure below: say how busy it was
say "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
say "== build (cargo build --release)"
timeout 1800 cargo build --release --quiet || die "release build failed"

if ! command -v wrk >/dev/null 2>&1; then
  say "== wrk not found: installing it with apt-get (apt-get update; apt-get install -y wrk)"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  timeout 300 $SUDO apt-get update -qq >/dev/null && timeout 300 $SUDO apt-get install -y -qq wrk >/dev/null \
    || die "could not install wrk"
fi
command -v /usr/bin/time >/dev/null 2>&1 || die "/usr/bin/time (GNU time) is needed for the memory figure"

say "== start: $BIN serve --port 0 (the reference server, release)"
"$BIN" serve --port 0 >"$TMP/serve.out" 2>&1 &
SERVER_PID=$!
URL=""
for _ in $(seq 1 50); do
  URL=$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$TMP/serve.out" | head -n1)
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || die "the server did not start: $(cat "$TMP/serve.out")"
say "   serving at $URL (pid $SERVER_PID)"

# the wrk request, checked once: it must be a 200 JSON-RPC result, or the rate means nothing
BODY=$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p; s/^  \.\. '\(.*\)'$/\1/p" benches/wrk_tools_call.lua | tr -d '\n')
STATUS=$(timeout 10 curl -sS -o "$TMP/answer" -w '%{http_code}' -X POST "$URL" \
  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: get_weather' \
  --data-binary "$BODY") || die "curl could not reach $URL"
grep -q '"result"' "$TMP/answer" && [ "$STATUS" = 200 ] \
  || die "the fixed request is not answered 200 + result (got $STATUS: $(head -c 300 "$TMP/answer"))"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: >"$TMP/ratios"; : >"$TMP/wrk_rates"; : >"$TMP/run_rates"
for round in $(seq 1 "$ROUNDS"); do
  say "== round $round/$ROUNDS (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  say "   (a) wrk -t1 -c$WRK_CONNS -d${WRK_SECS}s, one fixed tools/call request"
  timeout $((WRK_SECS + 30)) wrk -t1 -c"$WRK_CONNS" -d"${WRK_SECS}s" -s benches/wrk_tools_call.lua "$URL" \
    >"$TMP/wrk.out" 2>&1 || die "wrk failed: $(cat "$TMP/wrk.out")"
  grep -E 'Requests/sec|Non-2xx|Socket errors' "$TMP/wrk.out" | sed 's/^/      /'
  WRK_RATE=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.out")
  [ -n "$WRK_RATE" ] || die "no rate in wrk's output"
  say "   (b) mcpdiff run $URL --cases $RUN_CASES --seed 1 (default concurrency 8; judged cases/s)"
  timeout 600 "$BIN" run "$URL" --cases "$RUN_CASES" --seed 1 --quiet --json "$TMP/run.json" \
    >"$TMP/run.out" 2>&1
  RC=$?
  [ "$RC" -le 1 ] || die "mcpdiff run failed ($RC): $(tail -5 "$TMP/run.out")"
  RUN_RATE=$(grep -o '"cases_per_second": *[0-9.e+-]*' "$TMP/run.json" | head -n1 | sed 's/.*: *//')
  [ -n "$RUN_RATE" ] || die "no stats.cases_per_second in the run's JSON"
  RATIO=$(awk -v a="$WRK_RATE" -v b="$RUN_RATE" 'BEGIN { printf "%.3f", b / a }')
  printf '      mcpdiff: %.0f judged cases/s; ratio (b)/(a) = %s\n' "$RUN_RATE" "$RATIO"
  echo "$RATIO" >>"$TMP/ratios"; echo "$WRK_RATE" >>"$TMP/wrk_rates"; echo "$RUN_RATE" >>"$TMP/run_rates"
done
RATIO=$(median <"$TMP/ratios")
WRK_RATE=$(median <"$TMP/wrk_rates")
RUN_RATE=$(median <"$TMP/run_rates")
say "== median of $ROUNDS rounds: wrk $WRK_RATE req/s, mcpdiff $(printf '%.0f' "$RUN_RATE") cases/s, ratio $RATIO (ratios: $(tr '\n' ' ' <"$TMP/ratios"))"

say "== generator: cases/s on one thread ($BIN bench gen)"
GEN_LINE=$(timeout 120 "$BIN" bench gen --secs 2) || die "bench gen failed"
say "   $GEN_LINE"

say "== judge: Verdicts/s on one thread ($BIN bench judge)"
JUDGE_LINE=$(timeout 120 "$BIN" bench judge --secs 3) || die "bench judge failed"
say "   $JUDGE_LINE"
# the CPU-time rate (` verdicts_per_second=`, not `wall_...`): one core's worth of judging
JUDGE_RATE=$(printf '%s' "$JUDGE_LINE" | sed 's/.* verdicts_per_second=\([0-9]*\).*/\1/')

say "== mutants: time to first finding of each mutant's rule, default run settings (seed 1)"
timeout 900 "$BIN" bench mutants --seed 1 >"$TMP/mutants.out" 2>"$TMP/mutants.err" \
  || die "bench mutants failed: $(tail -5 "$TMP/mutants.err")"
sed 's/^/   /' "$TMP/mutants.out"
SUMMARY=$(grep '^summary' "$TMP/mutants.out")
MISSED=$(printf '%s' "$SUMMARY" | sed 's/.*missed=\([0-9]*\).*/\1/')
MEDIAN_MS=$(printf '%s' "$SUMMARY" | sed 's/.*median_ms=\([0-9.a-z]*\).*/\1/')
MAX_MS=$(printf '%s' "$SUMMARY" | sed 's/.*max_ms=\([0-9.a-z]*\).*/\1/')

peak_kib() { # cases -> max RSS in KiB of one release run against the server
  timeout 900 /usr/bin/time -v "$BIN" run "$URL" --cases "$1" --seed 1 --quiet \
    >"$TMP/mem.out" 2>"$TMP/mem.err"
  local rc=$?
  [ "$rc" -le 1 ] || die "memory run ($1 cases) failed ($rc): $(tail -5 "$TMP/mem.err")"
  awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$TMP/mem.err"
}
say "== memory: /usr/bin/time -v $BIN run URL --cases N --seed 1"
MEM_SMALL=$(peak_kib $((MEM_CASES / 10)))
say "   $((MEM_CASES / 10)) cases: max RSS ${MEM_SMALL} KiB"
MEM_BIG=$(peak_kib "$MEM_CASES")
say "   $MEM_CASES cases: max RSS ${MEM_BIG} KiB"

say ""
say "== targets"
FAILED=0
verdict() { # name, pass(0/1), detail
  if [ "$2" = 1 ]; then say "PASS  $1  ($3)"; else say "FAIL  $1  ($3)"; FAILED=1; fi
}
verdict "judge >= 1,000,000 Verdicts/s on one core" \
  "$(awk -v r="$JUDGE_RATE" 'BEGIN { print (r >= 1000000) ? 1 : 0 }')" "$JUDGE_RATE/s"
verdict "end-to-end >= 0.5 x wrk's rate (median of $ROUNDS rounds)" \
  "$(awk -v r="$RATIO" 'BEGIN { print (r >= 0.5) ? 1 : 0 }')" \
  "$(printf '%.0f' "$RUN_RATE") vs $WRK_RATE req/s, ratio $RATIO"
verdict "every mutant caught in < 5 s" \
  "$(awk -v m="$MAX_MS" -v x="$MISSED" 'BEGIN { print (x == 0 && m + 0 < 5000) ? 1 : 0 }')" \
  "max ${MAX_MS} ms, missed $MISSED"
verdict "mutant median < 1 s" \
  "$(awk -v m="$MEDIAN_MS" 'BEGIN { print (m + 0 < 1000) ? 1 : 0 }')" "median ${MEDIAN_MS} ms"
verdict "$MEM_CASES-case run < 100 MiB peak" \
  "$(awk -v k="$MEM_BIG" 'BEGIN { print (k < 100 * 1024) ? 1 : 0 }')" \
  "$(awk -v k="$MEM_BIG" 'BEGIN { printf "%.1f MiB", k / 1024 }')"
# "not growing": 10x the cases may cost at most 25% more peak memory
verdict "memory flat in the number of cases" \
  "$(awk -v s="$MEM_SMALL" -v b="$MEM_BIG" 'BEGIN { print (b <= s * 1.25) ? 1 : 0 }')" \
  "$(awk -v s="$MEM_SMALL" -v b="$MEM_BIG" 'BEGIN { printf "%.1f -> %.1f MiB", s / 1024, b / 1024 }')"
exit "$FAILED"
