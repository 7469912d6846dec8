#!/usr/bin/env bash
# Builds Jaeger v2 all-in-one (the Go module github.com/jaegertracing/jaeger, Apache-2.0; module
# v1.76.0 is Jaeger v2.13.0) from the Go module proxy into a cache, for the differential proof of
# svc's Jaeger query API (scripts/jaeger/record.sh, docs/jaeger.md). The module's go.mod has replace
# directives, so `go install pkg@version` refuses it: the module is downloaded and built in its own
# tree instead. Prints the binary's path on stdout, progress on standard error; a second run finds
# the cache and returns at once. Needs Go.
set -euo pipefail
version=${SVC_JAEGER_VERSION:-v1.76.0}
cache_root=${SVC_JAEGER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-jaeger}
bin_dir="$cache_root/$version/bin"
if [ -x "$bin_dir/jaeger" ]; then
  echo "$bin_dir/jaeger"
  exit 0
fi
command -v go >/dev/null 2>&1 || { echo "the Jaeger build needs Go" >&2; exit 1; }
echo "building Jaeger all-in-one $version into $bin_dir (several minutes the first time)" >&2
# Built aside and moved into place, so an interrupted build is redone rather than used half-written.
staging="$cache_root/$version/build.partial.$$"
rm -rf "$staging"
mkdir -p "$staging"
trap 'chmod -R u+w "$staging" 2>/dev/null; rm -rf "$staging"' EXIT
module_dir=$(cd "$staging" && go mod download -json "github.com/jaegertracing/jaeger@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$module_dir" ] || { echo "go mod download did not name the module's directory" >&2; exit 1; }
cp -r "$module_dir" "$staging/src"
chmod -R u+w "$staging/src"
(cd "$staging/src" && GOFLAGS=-mod=mod go build -o "$staging/jaeger" ./cmd/jaeger) >&2
mkdir -p "$bin_dir"
mv "$staging/jaeger" "$bin_dir/jaeger"
echo "$bin_dir/jaeger"
