#!/usr/bin/env bash
# Checks the Collector configurations printed in docs/getting-started.md and docs/collector-kafka.md
# with the real Collector's `validate` (src/e2e/otelcol-docs.interop.ts), using the collector
# fetch.sh builds into the cache (minutes the first time; needs Go). Opt-in, as the interop run.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(bash scripts/otelcol/fetch.sh)
npm run --silent build:tests
echo "== $("$bin" --version 2>/dev/null || echo "$bin")"
SVC_OTELCOL_BIN="$bin" node --test --test-reporter=spec dist/src/e2e/otelcol-docs.interop.js
