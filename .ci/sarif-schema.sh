#!/usr/bin/env bash
# Fetches the SARIF 2.1.0 JSON schema (rtm.5, draft-04) that tests/sarif_output.rs validates
# against. The schema is the OASIS committee's file and is not kept in this repository; a
# pinned npm package ships it. Output: target/sarif-schema/package/lib/schemas/.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/sarif-schema
schema=$dest/package/lib/schemas/sarif-2.1.0-rtm.5.json
if [ -f "$schema" ]; then echo "SARIF schema present: $schema"; exit 0; fi
mkdir -p "$dest"
( cd "$dest" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null && tar xzf microsoft-jest-sarif-1.0.0-beta.0.tgz )
test -f "$schema"
echo "SARIF schema fetched: $schema"
