#!/usr/bin/env bash
# The judge's speed, two or more builds side by side in one run: `mcpdiff bench judge` of each
# binary in turn, ROUNDS rounds, the order reversed every other round so that neither build
# always runs first; then each build's rounds sorted, its median, and the median's ratio to the
# first build's. How docs/PERFORMANCE.md measures a change to the judge: this 2-core machine is
# shared and its speed drifts 15% within an hour, so only figures taken in one run compare.
#
# Usage: benches/judge_ab.sh LABEL=BINARY [LABEL=BINARY ...]
#   e.g. benches/judge_ab.sh before=/tmp/mcpdiff.before after=target/release/mcpdiff
# Env:   ROUNDS (8), ARGS (`bench judge` arguments, "--secs 1 --rounds 5")
#
# A binary of another commit: `git worktree add /tmp/wt COMMIT`, then
# `CARGO_TARGET_DIR=/tmp/wt-target cargo build --release --bin mcpdiff` in it. Builds older than
# the schedstat clock (docs/PERFORMANCE.md, seventh stop) read CPU time in 10 ms ticks: noisier,
# not biased.
set -u

ROUNDS=${ROUNDS:-8}
ARGS=${ARGS:-"--secs 1 --rounds 5"}

if [ $# -lt 1 ]; then
  echo "usage: benches/judge_ab.sh LABEL=BINARY [LABEL=BINARY ...]" >&2
  exit 2
fi
labels=()
bins=()
for spec in "$@"; do
  label=${spec%%=*}
  bin=${spec#*=}
  if [ "$label" = "$spec" ] || [ ! -x "$bin" ]; then
    echo "judge_ab: '$spec' is not LABEL=BINARY with an executable BINARY" >&2
    exit 2
  fi
  labels+=("$label")
  bins+=("$bin")
done

declare -A rates
n=${#labels[@]}
for ((r = 1; r <= ROUNDS; r++)); do
  for ((k = 0; k < n; k++)); do
    # every other round from the last build to the first
    if ((r % 2 == 0)); then i=$((n - 1 - k)); else i=$k; fi
    # shellcheck disable=SC2086 # ARGS is a list of words
    line=$("${bins[$i]}" bench judge $ARGS) || { echo "judge_ab: ${bins[$i]} failed" >&2; exit 1; }
    v=$(sed -n 's/.* verdicts_per_second=\([0-9]*\) .*/\1/p' <<<"$line")
    rates[$i]="${rates[$i]:-} $v"
  done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
first=$(median <<<"${rates[0]}")
for ((i = 0; i < n; i++)); do
  m=$(median <<<"${rates[$i]}")
  sorted=$(tr ' ' '\n' <<<"${rates[$i]}" | grep -v '^$' | sort -n | tr '\n' ' ')
  ratio=$(awk -v a="$m" -v b="$first" 'BEGIN {printf "%.3f", a / b}')
  echo "${labels[$i]}: median=$m ratio_to_${labels[0]}=$ratio rounds: $sorted"
done
