#!/usr/bin/env bash
# Re-records real Jaeger's answers for the Jaeger query API proof (docs/jaeger.md): builds Jaeger v2
# all-in-one into the cache (fetch.sh, minutes the first time), compiles the tests, feeds Jaeger the
# proof's traces and writes its answers to src/api/jaeger/fixtures/jaeger-answers.json, which
# src/api/jaeger/jaeger-fixtures.e2e.test.ts compares svc's answers with in CI (no Jaeger needed there).
set -euo pipefail
cd "$(dirname "$0")/../.."
version=${SVC_JAEGER_VERSION:-v1.76.0}
bin=$(bash scripts/jaeger/fetch.sh)
npm run --silent build:tests
node dist/scripts/jaeger/record-fixtures.js "$bin" src/api/jaeger/fixtures/jaeger-answers.json "jaeger v2.13.0 (Go module github.com/jaegertracing/jaeger $version), memory storage"
