#!/usr/bin/env bash
# The README's main command (`cargo run --release -- run`, second run: everything built and
# installed) timed side by side: a base commit's release binary and this checkout's, built
# into separate target dirs, run alternately (the order flipped every other pair) against
# the same installed targets, several times; prints each run's wall time with the load
# average, the medians and the ratio this checkout / base, and checks issue 23's budget:
# the default run takes no more than 1.5x the base's second-run time.
#
# Usage: benches/main_command.sh          (from anywhere; builds in the repository)
# Env:   BASE (74b0281: the commit before the 2025-11-25 generated sequences; `main` when it
#          is not in the history), ROUNDS (5 pairs), BUDGET (1.5),
#          WORK (/tmp/mcpdiff-main-command: the base's worktree and, unless BASE_TARGET_DIR
#          is set, its target dir), BASE_TARGET_DIR, CARGO_TARGET_DIR (this checkout's),
#          RUN_ARGS (extra `run` flags, none by default: the README's command)
# Leaves: the base's worktree WORK/base-SHA and its target dir, reused by the next run
#          (`git worktree remove WORK/base-SHA` and `rm -r WORK` remove them).
#
# Both binaries read the bundled targets of this checkout's targets/ (MCPDIFF_TARGETS), so
# the SDKs are installed once (on the first, untimed run: needs npm, pip and cargo) and both
# sides talk to the same servers and clients. A run's own output goes to files under WORK;
# this checkout's binary also prints its stage timings (MCPDIFF_TIMING=1), kept beside it.
#
# Why pairs and a median: this 2-core machine is shared and a run lasts tens of seconds, so
# the load moves during one; pairs run back to back, their order flipped, and the median of
# each side (with the load average at each run's start) says how far to trust the ratio.
set -u
cd "$(dirname "$0")/.."
REPO=$(pwd)

ROUNDS=${ROUNDS:-5}
BUDGET=${BUDGET:-1.5}
WORK=${WORK:-/tmp/mcpdiff-main-command}
BASE=${BASE:-74b0281}
say() { printf '%s\n' "$*"; }
die() { say "main_command: $*" >&2; exit 2; }

if ! git rev-parse --verify --quiet "$BASE^{commit}" >/dev/null; then
  say "== $BASE is not in this history: the base is main"
  BASE=main
fi
BASE_SHA=$(git rev-parse --short "$BASE^{commit}") || die "no commit $BASE"
HEAD_SHA=$(git rev-parse --short HEAD)
BRANCH_TARGET=${CARGO_TARGET_DIR:-$REPO/target}
BASE_TARGET=${BASE_TARGET_DIR:-$WORK/target-base}
BASE_TREE=$WORK/base-$BASE_SHA
mkdir -p "$WORK" || die "cannot create $WORK"

say "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
say "== base $BASE ($BASE_SHA) in $BASE_TREE, target dir $BASE_TARGET"
say "   this checkout $HEAD_SHA$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with uncommitted changes)'), target dir $BRANCH_TARGET"
if [ ! -d "$BASE_TREE" ]; then
  git worktree add --detach "$BASE_TREE" "$BASE_SHA" >/dev/null 2>&1 || die "git worktree add $BASE_TREE failed"
fi
# the base's dependencies are (nearly) this checkout's: start from its build, if any
if [ ! -d "$BASE_TARGET/release" ] && [ -d "$BRANCH_TARGET/release" ]; then
  mkdir -p "$BASE_TARGET" && cp -a "$BRANCH_TARGET/release" "$BASE_TARGET/" || die "cannot seed $BASE_TARGET"
fi
say "== build both (cargo build --release --locked)"
(cd "$BASE_TREE" && CARGO_TARGET_DIR=$BASE_TARGET timeout 3600 cargo build --release --locked --quiet) \
  || die "the base's release build failed"
CARGO_TARGET_DIR=$BRANCH_TARGET timeout 3600 cargo build --release --locked --quiet \
  || die "this checkout's release build failed"
BASE_BIN=$BASE_TARGET/release/mcpdiff
BRANCH_BIN=$BRANCH_TARGET/release/mcpdiff
export MCPDIFF_TARGETS=$REPO/targets

# one run: side (base|branch), tag -> RUN_S, its wall seconds; the output kept in WORK
one_run() {
  local bin tree start end rc
  if [ "$1" = base ]; then bin=$BASE_BIN; tree=$BASE_TREE; else bin=$BRANCH_BIN; tree=$REPO; fi
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  (cd "$tree" && MCPDIFF_TIMING=1 timeout 900 "$bin" run --quiet ${RUN_ARGS:-}) \
    >"$WORK/$1-$2.out" 2>"$WORK/$1-$2.err"
  rc=$?
  end=$(date +%s.%N)
  # 1: MUST findings (the mutants guarantee some); anything else is a failed run
  [ "$rc" -le 1 ] || die "$1 run $2 failed ($rc): $(tail -3 "$WORK/$1-$2.err")"
  RUN_S=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

say "== first runs (untimed: install what is missing under $MCPDIFF_TARGETS, warm the caches)"
one_run base first; B=$RUN_S; one_run branch first
say "   base $B s, this checkout $RUN_S s"

say "== $ROUNDS pairs of second runs: $(basename "$BASE_BIN") run --quiet${RUN_ARGS:+ $RUN_ARGS}"
say "   pair  order          load    base s  this s  legacy stage s (base / this)"
: >"$WORK/base.times"; : >"$WORK/branch.times"; : >"$WORK/legacy.times"; : >"$WORK/base-legacy.times"
# the legacy stage's own figure, from the note a run prints (`... the stage in X s`; a base
# before the generated 2025-11-25 sequences prints none)
stage() { sed -n 's/.* the stage in \([0-9.]*\) s$/\1/p' "$1" | head -n1; }
for pair in $(seq 1 "$ROUNDS"); do
  LOAD=$(cut -d' ' -f1 /proc/loadavg)
  if [ $((pair % 2)) = 1 ]; then
    ORDER="base,this"; one_run base "$pair"; B=$RUN_S; one_run branch "$pair"; T=$RUN_S
  else
    ORDER="this,base"; one_run branch "$pair"; T=$RUN_S; one_run base "$pair"; B=$RUN_S
  fi
  L=$(stage "$WORK/branch-$pair.out"); LB=$(stage "$WORK/base-$pair.out")
  printf '   %4s  %-10s  %6s  %8s  %6s  %s / %s\n' "$pair" "$ORDER" "$LOAD" "$B" "$T" "${LB:--}" "${L:--}"
  echo "$B" >>"$WORK/base.times"; echo "$T" >>"$WORK/branch.times"
  [ -n "$L" ] && echo "$L" >>"$WORK/legacy.times"; [ -n "$LB" ] && echo "$LB" >>"$WORK/base-legacy.times"
done
MB=$(median <"$WORK/base.times")
MT=$(median <"$WORK/branch.times")
RATIO=$(awk -v b="$MB" -v t="$MT" 'BEGIN { printf "%.2f", t / b }')
say "== medians: base $BASE_SHA $MB s, this checkout $HEAD_SHA $MT s (legacy stage: base $(median <"$WORK/base-legacy.times") s, this $(median <"$WORK/legacy.times") s), ratio $RATIO"
say "   load average now $(cut -d' ' -f1-3 /proc/loadavg)"
say "   this checkout's stages, last pair: $(sed -n 's/^mcpdiff timing: //p' "$WORK/branch-$ROUNDS.err" | tr '\n' ';')"
if awk -v r="$RATIO" -v b="$BUDGET" 'BEGIN { exit !(r <= b) }'; then
  say "PASS  second run within ${BUDGET}x the base's (ratio $RATIO)"
else
  say "FAIL  second run over ${BUDGET}x the base's (ratio $RATIO)"
  exit 1
fi
