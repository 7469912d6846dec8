#!/usr/bin/env bash
# Interop run with the OpenTelemetry Collector's kafka exporter (docs/collector-kafka.md): builds
# the collector into the cache (fetch.sh, minutes the first time), compiles svc and its tests, and runs
# src/e2e/otelcol-kafka.interop.ts against a real test broker. Prints the test result and the
# records each producer left on the topics (JSON). Needs Go, Java and the Kafka jars, as the tests do.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(bash scripts/otelcol/fetch.sh)
npm run --silent build:tests
report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
SVC_OTELCOL_BIN="$bin" SVC_INTEROP_REPORT="$report" node --test --test-reporter=spec dist/src/e2e/otelcol-kafka.interop.js || status=$?
echo "== findings ($("$bin" --version 2>/dev/null || echo "$bin"))"
cat "$report"
exit "$status"
