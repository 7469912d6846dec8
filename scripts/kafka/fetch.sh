#!/usr/bin/env bash
# Fetches Apache Kafka's broker jars (KRaft broker + controller, storage tool) from Maven Central
# into a cache, for the tests' single-node broker (src/testing/kafka.ts). Maven Central only: the
# jars are the dependency closure of scripts/kafka/pom.xml. Prints the libs directory on stdout.
# A second run finds the cache and returns at once. Exits non-zero when the fetch fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")
cache_root=${SVC_KAFKA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-kafka}
libs="$cache_root/$version/libs"
# The marker is written last, so an interrupted fetch is redone rather than used half-copied.
if [ -f "$libs/.complete" ]; then
  echo "$libs"
  exit 0
fi
echo "fetching Apache Kafka $version jars from Maven Central into $libs" >&2
staging="$cache_root/$version/libs.partial.$$"
rm -rf "$staging"
mkdir -p "$staging"
trap 'rm -rf "$staging"' EXIT
# Maven 3.8 prints colour resets even in batch mode; stripped so CI logs stay plain.
mvn -q -B -Dstyle.color=never -f "$here/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$staging" 2>&1 \
  | sed 's/\x1b\[[0-9;]*m//g' >&2
ls "$staging"/kafka_2.13-"$version".jar >/dev/null
rm -rf "$libs"
mv "$staging" "$libs"
touch "$libs/.complete"
echo "$libs"
