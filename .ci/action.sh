#!/usr/bin/env bash
# The shell half of action.yml (the composite GitHub Action): reads the INPUT_* variables
# action.yml sets, masks every header value, runs `mcpdiff run URL ... --sarif FILE`, then,
# with a `corpus` input, `mcpdiff replay CORPUS URL` with the same headers, and writes
# `exit-code`, `replay-exit-code` (empty without a corpus) and `sarif` to $GITHUB_OUTPUT.
# Kept out of action.yml so that tests/action_script.rs can run it with a fake GitHub
# environment.
#
# MCPDIFF_BIN overrides the binary (default: `mcpdiff` on PATH, as `cargo install` left it).
set -euo pipefail

fail() {
  echo "::error title=mcpdiff::$1"
  exit 2
}

url="${INPUT_URL:-}"
[ -n "$url" ] || fail "the 'url' input is required (the MCP endpoint, e.g. http://127.0.0.1:3000/mcp)"
sarif="${INPUT_SARIF:-mcpdiff.sarif}"
bin="${MCPDIFF_BIN:-mcpdiff}"

args=(run "$url" --cases "${INPUT_CASES:-2000}" --max-time "${INPUT_MAX_TIME:-300}" --sarif "$sarif" --quiet)
[ -z "${INPUT_SEED:-}" ] || args+=(--seed "$INPUT_SEED")
[ -z "${INPUT_BASELINE:-}" ] || args+=(--baseline "$INPUT_BASELINE")

# headers: one `Name: value` per line; each value is masked before anything else can print
# it (the runner swallows `::add-mask::` lines), and no line of this script echoes one
line_no=0
n_headers=0
headers=()
while IFS= read -r line || [ -n "$line" ]; do
  line_no=$((line_no + 1))
  line="${line%$'\r'}"
  [[ "$line" =~ ^[[:space:]]*$ ]] && continue
  if [[ "$line" != *:* ]]; then
    fail "headers line $line_no is not 'Name: value' (its text is not shown: it may be a secret)"
  fi
  value="${line#*:}"
  value="${value#"${value%%[![:space:]]*}"}"
  value="${value%"${value##*[![:space:]]}"}"
  [ -z "$value" ] || echo "::add-mask::$value"
  # `Bearer TOKEN`: the token alone too, in case something prints it without its scheme
  token="${value#* }"
  [ "$token" = "$value" ] || [ -z "$token" ] || echo "::add-mask::$token"
  args+=(--header "$line")
  headers+=(--header "$line")
  n_headers=$((n_headers + 1))
done <<< "${INPUT_HEADERS:-}"

echo "mcpdiff run $url: cases ${INPUT_CASES:-2000}, max-time ${INPUT_MAX_TIME:-300} s, $n_headers header(s)"
set +e
"$bin" "${args[@]}"
code=$?
set -e

# the regression corpus: every stored case sent again and judged with today's oracle
replay_code=""
if [ -n "${INPUT_CORPUS:-}" ]; then
  echo "mcpdiff replay ${INPUT_CORPUS} $url: $n_headers header(s)"
  set +e
  "$bin" replay "$INPUT_CORPUS" "$url" "${headers[@]}"
  replay_code=$?
  set -e
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    echo "replay-exit-code=$replay_code"
    echo "sarif=$sarif"
  } >> "$GITHUB_OUTPUT"
fi

# a step that could not be done fails whatever was found; findings fail it unless told not to
if [ "$code" -ge 2 ]; then
  echo "::error title=mcpdiff::the run could not be done (exit $code)"
  exit "$code"
fi
if [ -n "$replay_code" ] && [ "$replay_code" -ge 2 ]; then
  echo "::error title=mcpdiff::the corpus replay could not be done (exit $replay_code): a corpus file is unreadable, or the target was not reached"
  exit "$replay_code"
fi
found=0
if [ "$code" = 1 ]; then
  echo "::warning title=mcpdiff::MUST findings outside the baseline; see $sarif"
  found=1
fi
if [ "$replay_code" = 1 ]; then
  echo "::warning title=mcpdiff::the corpus replay found oracle drift or a MUST finding on a stored case; see the log"
  found=1
fi
if [ "$found" = 1 ] && [ "${INPUT_FAIL_ON_FINDINGS:-true}" != "false" ]; then
  exit 1
fi
