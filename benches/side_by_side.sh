#!/usr/bin/env bash
# Side-by-side speed check of mcpdiff, in one run on one machine:
#   1. end to end: wrk's request rate against `mcpdiff serve` (release) with one fixed
#      conformant request, and mcpdiff's judged cases per second against the same server, in
#      interleaved pairs; per pair the rate ratio and the CPU seconds each side spent (client +
#      server) per unit of work; the median of the pairs with its spread;
#   2. judge: Verdicts per second on one thread (median of 7 slices), heap allocations per
#      Verdict, and instructions per Verdict (callgrind: the load-independent figure);
#   3. time to the first finding of each mutant's named rule with default `run` settings;
#   4. peak memory (max RSS) of a 100,000-case run, and of a 10,000-case run to show it does
#      not grow with the number of cases.
# Prints PASS/FAIL per target and exits 1 if any target is missed (2 if it could not run).
#
# Usage: benches/side_by_side.sh        (from anywhere; builds in the repository)
# Env:   MCPDIFF_BIN (a built binary: skips the build), ROUNDS (9 pairs), WRK_SECS (3), RUN_CASES (20000), MEM_CASES (100000), WRK_CONNS (8)
#
# Why pairs, a median and CPU seconds: this 2-core machine is shared, and its load changes from
# second to second; one wrk run and one mcpdiff run can land on different loads (single ratios
# of 0.39 and 1.09 were seen in one run). Pairs run back to back, their order flipped every other
# pair; the median ratio and its spread say how much to trust the figure, and CPU seconds per
# request or case barely move with the load, since waiting for a busy core costs no CPU time.
set -u
cd "$(dirname "$0")/.."

WRK_SECS=${WRK_SECS:-3}
RUN_CASES=${RUN_CASES:-20000}
ROUNDS=${ROUNDS:-9}
MEM_CASES=${MEM_CASES:-100000}
WRK_CONNS=${WRK_CONNS:-8}
BIN=${MCPDIFF_BIN:-target/release/mcpdiff}
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
if [ -n "${MCPDIFF_BIN:-}" ]; then
  say "   skipped: MCPDIFF_BIN=$MCPDIFF_BIN given"
else
  timeout 1800 cargo build --release --quiet || die "release build failed"
fi

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

# numbers: median, and the spread as min / p25 / p75 / max (nearest-rank), of a column of values
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() {
  sort -g | awk '{ v[NR] = $1 } END {
    q1 = int((NR + 3) / 4); q3 = int((3 * NR + 3) / 4); if (q1 < 1) q1 = 1
    printf "min %s, p25 %s, p75 %s, max %s", v[1], v[q1], v[q3], v[NR] }'
}
# CPU seconds (user + system) the server process has used so far, from /proc (clock ticks)
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.4f", ($14 + $15) / hz }' "/proc/$SERVER_PID/stat"; }

# (a) one wrk phase: sets WRK_RATE, WRK_REQS, WRK_CPU (wrk's own CPU s), WRK_SRV_CPU (server CPU s)
wrk_phase() {
  local before after
  before=$(server_cpu)
  timeout $((WRK_SECS + 30)) /usr/bin/time -f 'cpu %U %S' -o "$TMP/wrk.time" \
    wrk -t1 -c"$WRK_CONNS" -d"${WRK_SECS}s" -s benches/wrk_tools_call.lua "$URL" \
    >"$TMP/wrk.out" 2>&1 || die "wrk failed: $(cat "$TMP/wrk.out")"
  after=$(server_cpu)
  grep -qE 'Non-2xx|Socket errors' "$TMP/wrk.out" && say "      wrk: $(grep -E 'Non-2xx|Socket errors' "$TMP/wrk.out" | tr -s ' ')"
  WRK_RATE=$(awk '/Requests\/sec/ {print $2}' "$TMP/wrk.out")
  WRK_REQS=$(awk '/requests in/ {print $1}' "$TMP/wrk.out")
  [ -n "$WRK_RATE" ] && [ -n "$WRK_REQS" ] || die "no rate in wrk's output: $(cat "$TMP/wrk.out")"
  WRK_CPU=$(awk '/^cpu/ {print $2 + $3}' "$TMP/wrk.time")
  WRK_SRV_CPU=$(awk -v a="$before" -v b="$after" 'BEGIN { print b - a }')
}

# (b) one mcpdiff phase: sets RUN_RATE, RUN_CASES_DONE, RUN_REQS, RUN_CPU, RUN_SRV_CPU
run_phase() {
  local before after rc
  before=$(server_cpu)
  timeout 600 /usr/bin/time -f 'cpu %U %S' -o "$TMP/run.time" \
    "$BIN" run "$URL" --cases "$RUN_CASES" --seed 1 --quiet --json "$TMP/run.json" >"$TMP/run.out" 2>&1
  rc=$?
  after=$(server_cpu)
  [ "$rc" -le 1 ] || die "mcpdiff run failed ($rc): $(tail -5 "$TMP/run.out")"
  RUN_RATE=$(grep -o '"cases_per_second": *[0-9.e+-]*' "$TMP/run.json" | head -n1 | sed 's/.*: *//')
  RUN_CASES_DONE=$(grep -o '"cases": *[0-9]*' "$TMP/run.json" | head -n1 | sed 's/.*: *//')
  RUN_REQS=$(grep -o '"requests": *[0-9]*' "$TMP/run.json" | head -n1 | sed 's/.*: *//')
  [ -n "$RUN_RATE" ] && [ -n "$RUN_CASES_DONE" ] || die "no stats in the run's JSON"
  RUN_CPU=$(awk '/^cpu/ {print $2 + $3}' "$TMP/run.time")
  RUN_SRV_CPU=$(awk -v a="$before" -v b="$after" 'BEGIN { print b - a }')
}

# Pairs of one wrk phase and one mcpdiff phase, the order flipped every other pair (wrk first,
# then mcpdiff first) so a load that drifts during the run weighs on both sides alike. Each pair
# gives one ratio; the figure is their median with its spread. Beside it, CPU seconds per unit
# of work (client + server, from /usr/bin/time and /proc/PID/stat): time spent waiting for a
# busy core does not count there, so it moves far less with the machine's load than a rate.
say "== $ROUNDS pairs: (a) wrk -t1 -c$WRK_CONNS -d${WRK_SECS}s, one fixed tools/call; (b) $BIN run URL --cases $RUN_CASES --seed 1"
say "   pair  order   load   wrk req/s  mcpdiff cases/s   ratio   CPU µs/wrk req (wrk+srv)   CPU µs/judged case (mcpdiff+srv)"
for f in ratios wrk_rates run_rates wrk_cpu run_cpu cpu_ratio; do : >"$TMP/$f"; done
for pair in $(seq 1 "$ROUNDS"); do
  LOAD=$(cut -d' ' -f1 /proc/loadavg)
  if [ $((pair % 2)) = 1 ]; then ORDER="a,b"; wrk_phase; run_phase; else ORDER="b,a"; run_phase; wrk_phase; fi
  RATIO=$(awk -v a="$WRK_RATE" -v b="$RUN_RATE" 'BEGIN { printf "%.3f", b / a }')
  WRK_US=$(awk -v c="$WRK_CPU" -v s="$WRK_SRV_CPU" -v n="$WRK_REQS" 'BEGIN { printf "%.1f", (c + s) * 1e6 / n }')
  RUN_US=$(awk -v c="$RUN_CPU" -v s="$RUN_SRV_CPU" -v n="$RUN_CASES_DONE" 'BEGIN { printf "%.1f", (c + s) * 1e6 / n }')
  printf '   %4s  %-5s  %5s  %10.0f  %15.0f  %6s   %8s (%s+%s s / %s)   %8s (%s+%s s / %s cases, %s requests)\n' \
    "$pair" "$ORDER" "$LOAD" "$WRK_RATE" "$RUN_RATE" "$RATIO" "$WRK_US" "$WRK_CPU" "$WRK_SRV_CPU" "$WRK_REQS" \
    "$RUN_US" "$RUN_CPU" "$RUN_SRV_CPU" "$RUN_CASES_DONE" "$RUN_REQS"
  echo "$RATIO" >>"$TMP/ratios"; echo "$WRK_RATE" >>"$TMP/wrk_rates"; echo "$RUN_RATE" >>"$TMP/run_rates"
  echo "$WRK_US" >>"$TMP/wrk_cpu"; echo "$RUN_US" >>"$TMP/run_cpu"
  awk -v w="$WRK_US" -v r="$RUN_US" 'BEGIN { printf "%.3f\n", w / r }' >>"$TMP/cpu_ratio"
done
RATIO=$(median <"$TMP/ratios")
WRK_RATE=$(median <"$TMP/wrk_rates")
RUN_RATE=$(median <"$TMP/run_rates")
CPU_RATIO=$(median <"$TMP/cpu_ratio")
say "== end-to-end, median of $ROUNDS pairs: wrk $WRK_RATE req/s, mcpdiff $(printf '%.0f' "$RUN_RATE") cases/s"
say "   rate ratio (b)/(a): median $RATIO ($(spread <"$TMP/ratios"))"
say "   CPU µs per wrk request: median $(median <"$TMP/wrk_cpu") ($(spread <"$TMP/wrk_cpu"))"
say "   CPU µs per judged case: median $(median <"$TMP/run_cpu") ($(spread <"$TMP/run_cpu"))"
say "   CPU-cost ratio (wrk µs / mcpdiff µs, 1.0 = a judged case costs what a wrk request does): median $CPU_RATIO ($(spread <"$TMP/cpu_ratio"))"

say "== generator: cases/s on one thread ($BIN bench gen)"
GEN_LINE=$(timeout 120 "$BIN" bench gen --secs 2) || die "bench gen failed"
say "   $GEN_LINE"

say "== judge: Verdicts/s on one thread ($BIN bench judge)"
JUDGE_LINE=$(timeout 120 "$BIN" bench judge --secs 3) || die "bench judge failed"
say "   $JUDGE_LINE"
# the CPU-time rate (` verdicts_per_second=`, not `wall_...`): one core's worth of judging
JUDGE_RATE=$(printf '%s' "$JUDGE_LINE" | sed 's/.* verdicts_per_second=\([0-9]*\).*/\1/')
# heap allocations per Verdict need a counting allocator, which the mcpdiff binary does not
# carry: props/examples/judge_speed.rs counts them over the same runner case mix
say "== judge: heap allocations per Verdict (cargo run --release -p mcpdiff-props --example judge_speed)"
SPEED_OUT=$(timeout 1800 cargo run --release --quiet -p mcpdiff-props --example judge_speed 2>&1) \
  || die "judge_speed failed: $(printf '%s' "$SPEED_OUT" | tail -3)"
printf '%s\n' "$SPEED_OUT" | sed 's/^/   /'
JUDGE_ALLOCS=$(printf '%s\n' "$SPEED_OUT" | sed -n 's/^runner cases.*: judge [0-9]* Verdicts\/s ([0-9]* ns, \([0-9.]*\) allocations).*/\1/p')

# the wall rate above moves with the core's clock and its neighbours; instructions do not
# (callgrind counts the same total for the same binary and inputs, loaded or idle), so this is
# the figure to compare across runs and machines of the same kind
if command -v valgrind >/dev/null 2>&1; then
  say "== judge: instructions per Verdict (valgrind --tool=callgrind, props/examples/judge_profile)"
  timeout 1800 cargo build --release --quiet -p mcpdiff-props --example judge_profile \
    || die "judge_profile build failed"
  timeout 600 valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.out" \
    --toggle-collect='*judge_and_drop' target/release/examples/judge_profile \
    >"$TMP/cg.stdout" 2>"$TMP/cg.err" || die "callgrind failed: $(tail -3 "$TMP/cg.err")"
  IR=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$TMP/cg.err")
  PROFILED=$(sed -n 's/^\([0-9]*\) Verdicts$/\1/p' "$TMP/cg.stdout")
  [ -n "$IR" ] && [ -n "$PROFILED" ] || die "callgrind printed no totals"
  IR_PER_VERDICT=$((IR / PROFILED))
  say "   $IR_PER_VERDICT instructions per Verdict ($IR over $PROFILED Verdicts)"
else
  say "== judge: instructions per Verdict: skipped (valgrind not installed)"
fi

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
  "$(awk -v r="$JUDGE_RATE" 'BEGIN { print (r >= 1000000) ? 1 : 0 }')" \
  "$JUDGE_RATE/s, median of 7 slices; ${IR_PER_VERDICT:-?} instructions per Verdict"
verdict "judge <= 2 heap allocations per Verdict" \
  "$(awk -v a="${JUDGE_ALLOCS:-x}" 'BEGIN { print (a != "x" && a + 0 <= 2) ? 1 : 0 }')" "${JUDGE_ALLOCS:-not printed by judge_speed}"
verdict "end-to-end >= 0.5 x wrk's rate (median of $ROUNDS pairs)" \
  "$(awk -v r="$RATIO" 'BEGIN { print (r >= 0.5) ? 1 : 0 }')" \
  "$(printf '%.0f' "$RUN_RATE") vs $WRK_RATE req/s, ratio $RATIO ($(spread <"$TMP/ratios"))"
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
