#!/usr/bin/env bash
# Builds an OpenTelemetry Collector with the OTLP receiver, the batch processor and the otlp,
# otlphttp and kafka exporters, using the OpenTelemetry Collector Builder (ocb) from the Go module
# proxy, into a cache, for the interop run scripts/otelcol/interop.sh (docs/collector-kafka.md) and
# the check of the docs' Collector configurations, scripts/otelcol/validate-docs.sh. Needs Go.
# Prints the binary's path on stdout, progress on standard error; a second run finds the cache and
# returns at once.
set -euo pipefail
# The builder, the core receiver and the contrib exporter are released together under one version.
version=${SVC_OTELCOL_VERSION:-v0.155.0}
cache_root=${SVC_OTELCOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-otelcol}
# The components' revision: a build with fewer components is not reused.
components=r2
bin_dir="$cache_root/$version-$components/bin"
if [ -x "$bin_dir/svc-otelcol" ]; then
  echo "$bin_dir/svc-otelcol"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "the collector build needs Go" >&2; exit 1; }
echo "building the collector $version (otlp receiver, batch processor, otlp, otlphttp and kafka exporters) into $bin_dir (many minutes the first time)" >&2
# Built aside and moved into place, so an interrupted build is redone rather than used half-written.
staging="$cache_root/$version-$components/build.partial.$$"
rm -rf "$staging"
mkdir -p "$staging/tools"
trap 'rm -rf "$staging"' EXIT
GOBIN="$staging/tools" go install "go.opentelemetry.io/collector/cmd/builder@$version" >&2
cat >"$staging/manifest.yaml" <<MANIFEST
dist:
  name: svc-otelcol
  description: OpenTelemetry Collector with what svc's docs configure, for svc's interop run and docs check
  output_path: $staging/out
receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver $version
processors:
  - gomod: go.opentelemetry.io/collector/processor/batchprocessor $version
exporters:
  - gomod: go.opentelemetry.io/collector/exporter/otlpexporter $version
  - gomod: go.opentelemetry.io/collector/exporter/otlphttpexporter $version
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/kafkaexporter $version
MANIFEST
"$staging/tools/builder" --config "$staging/manifest.yaml" >&2
rm -rf "$bin_dir"
mkdir -p "$bin_dir"
mv "$staging/out/svc-otelcol" "$bin_dir/svc-otelcol"
echo "$bin_dir/svc-otelcol"
