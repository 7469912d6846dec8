#!/usr/bin/env bash
# Builds the OpenTelemetry load generator `telemetrygen` from the Go module proxy into a cache, for
# the benchmarks (bench/telemetrygen.ts). Needs Go. Prints the binary's path on stdout, progress on
# standard error; a second run finds the cache and returns at once.
set -euo pipefail
version=${SVC_TELEMETRYGEN_VERSION:-v0.161.0}
cache_root=${SVC_TELEMETRYGEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-telemetrygen}
bin_dir="$cache_root/$version/bin"
if [ -x "$bin_dir/telemetrygen" ]; then
  echo "$bin_dir/telemetrygen"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "telemetrygen needs Go" >&2; exit 1; }
echo "building telemetrygen $version from the Go module proxy into $bin_dir (a few minutes the first time)" >&2
# Built aside and moved into place, so an interrupted build is redone rather than used half-written.
staging="$cache_root/$version/bin.partial.$$"
rm -rf "$staging"
mkdir -p "$staging"
trap 'rm -rf "$staging"' EXIT
GOBIN="$staging" go install "github.com/open-telemetry/opentelemetry-collector-contrib/cmd/telemetrygen@$version" >&2
rm -rf "$bin_dir"
mv "$staging" "$bin_dir"
echo "$bin_dir/telemetrygen"
