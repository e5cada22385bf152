#!/bin/bash
# ClusterFuzzLite build: every cargo-fuzz target of fuzz/ that needs no live server, built
# with `cargo fuzz build -O` and copied to $OUT, each with a seed corpus
# ($OUT/<target>_seed_corpus.zip) made from the inputs the repository keeps for it.
#
# The builder image runs it as $SRC/build.sh with the checkout in $SRC/mcpdiff and sets
# SANITIZER, RUSTFLAGS, CUSTOM_LIBFUZZER_PATH and friends; none of them is required here, so
# the same script builds in any container with nightly Rust and cargo-fuzz:
#   SRC=/path/to/scratch OUT=$SRC/out WORK=$SRC/work bash .clusterfuzzlite/build.sh
# (fuzz/README.md records such a run). CARGO_TARGET_DIR is honoured.
set -euo pipefail

# Targets that fuzz a server over HTTP (MCPDIFF_TARGET): not built, nothing to point them at.
NEEDS_SERVER="live"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${SRC:-}" ] && [ -f "$SRC/mcpdiff/fuzz/Cargo.toml" ]; then
  root="$SRC/mcpdiff"             # the builder image's layout
elif [ -f "$here/../fuzz/Cargo.toml" ]; then
  root="$(cd "$here/.." && pwd)"  # run from a checkout
else
  echo "build.sh: no fuzz/Cargo.toml under \$SRC/mcpdiff or next to this script; set SRC" >&2
  exit 2
fi
: "${OUT:?build.sh: set OUT to the folder the fuzz binaries go to}"
work="${WORK:-$(mktemp -d)}"
mkdir -p "$OUT" "$work"
OUT="$(cd "$OUT" && pwd)"
work="$(cd "$work" && pwd)"
cd "$root"

# Target names from fuzz/Cargo.toml's [[bin]] tables. Not `cargo fuzz list`: in a coverage
# build the image's cargo wrapper turns every `cargo fuzz ...` into a plain build.
targets=()
while read -r name; do
  case " $NEEDS_SERVER " in *" $name "*) continue ;; esac
  targets+=("$name")
done < <(awk '/^\[\[bin\]\]/ { bin = 1; next } /^\[/ { bin = 0 }
              bin && /^name *=/ { gsub(/^name *= *"|"$/, ""); print }' fuzz/Cargo.toml)
[ "${#targets[@]}" -gt 0 ] || { echo "build.sh: no [[bin]] in fuzz/Cargo.toml" >&2; exit 2; }
echo "build.sh: targets ${targets[*]} (not built: $NEEDS_SERVER)"

# cargo-fuzz needs nightly: the image pins one in RUSTUP_TOOLCHAIN; elsewhere take rustup's.
if ! rustc -V | grep -q nightly; then
  export RUSTUP_TOOLCHAIN=nightly
fi

# cargo-fuzz always passes --target <host>, so the binaries land under the host triple
# whatever CARGO_BUILD_TARGET says; the target dir is CARGO_TARGET_DIR or fuzz/target.
host="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir="${CARGO_TARGET_DIR:-$root/fuzz/target}/$host/release"

for t in "${targets[@]}"; do
  cargo fuzz build -O "$t"
  [ -x "$bin_dir/$t" ] || { echo "build.sh: $t not found at $bin_dir/$t" >&2; exit 1; }
  cp "$bin_dir/$t" "$OUT/"
done

# Seed corpora. A fuzz input is raw bytes: `sentinel` reads them as a header value,
# `annotations` draws a schema and arguments from them, `judge` and `reference` map them to a
# Case with `case_from_bytes` (a probe choice plus edits). So the right seeds are the saved
# inputs in fuzz/regressions/<target>/ (seeds and minimized crashes); `judge` and
# `reference` share the mapping and so each other's inputs. The JSON files of corpus/ are
# not inputs of any target, but the header values inside them are inputs of `sentinel`.
seed_dirs() {
  case "$1" in
    judge | reference) echo "fuzz/regressions/judge fuzz/regressions/reference" ;;
    *) echo "fuzz/regressions/$1" ;;
  esac
}

# The Mcp-Name and Mcp-Param-* values of every server corpus entry, one file each. Entries
# of mcpdiff-corpus/1 store every byte sequence as Base64; mcpdiff-corpus/2 stores text as a
# JSON string and other bytes as {"base64": "..."}.
corpus_header_values() {
  python3 - "$1" corpus/*.json <<'PY'
import base64, hashlib, json, os, sys
dest = sys.argv[1]
def raw(field, schema):
    if isinstance(field, dict):
        return base64.b64decode(field["base64"])
    if schema == "mcpdiff-corpus/1":
        return base64.b64decode(field)
    return field.encode("utf-8")
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as f:
        entry = json.load(f)
    schema = entry.get("schema")
    if schema not in ("mcpdiff-corpus/1", "mcpdiff-corpus/2"):
        continue
    for header in entry.get("request", {}).get("headers", []):
        name = raw(header["name"], schema).decode("latin-1").lower()
        if name == "mcp-name" or name.startswith("mcp-param-"):
            value = raw(header["value"], schema)
            digest = hashlib.sha1(value).hexdigest()[:16]
            with open(os.path.join(dest, "corpus-" + digest), "wb") as out:
                out.write(value)
PY
}

zip_flat() { # zip_flat ARCHIVE DIR: every file of DIR at the top level of ARCHIVE
  rm -f "$1"
  if command -v zip >/dev/null; then
    (cd "$2" && zip -q -X "$1" ./*)
  else
    python3 -m zipfile -c "$1" "$2"/*
  fi
}

for t in "${targets[@]}"; do
  stage="$work/seeds/$t"
  rm -rf "$stage"
  mkdir -p "$stage"
  for d in $(seed_dirs "$t"); do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
      if [ -f "$f" ] && [ "${f##*.}" != "md" ]; then
        cp "$f" "$stage/$(basename "$d")-$(basename "$f")"
      fi
    done
  done
  if [ "$t" = sentinel ]; then
    if command -v python3 >/dev/null; then
      corpus_header_values "$stage"
    else
      echo "build.sh: no python3, sentinel seeds without the corpus header values"
    fi
  fi
  if [ -n "$(ls -A "$stage")" ]; then
    zip_flat "$OUT/${t}_seed_corpus.zip" "$stage"
    echo "build.sh: $t: $(ls "$stage" | wc -l) seeds"
  fi
done
