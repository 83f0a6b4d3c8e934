#!/usr/bin/env bash
# Regenerates docs/benchmarks: bench/report.sh [json|json-scan|base64|parallel|nbt|compact|cluster|all ...] [--quick]
# Full runs rewrite docs/benchmarks/<suite>.md, its charts and README.md; --quick runs every benchmark once
# and writes the reports under BenchmarkDotNet.Artifacts/quick-reports instead. The cluster suite is its own program
# (bench/cluster.sh: silos, not BenchmarkDotNet); `all` runs it after the others.
set -euo pipefail
cd "$(dirname "$0")/.."
suites=() quick=() cluster=no
for argument in "$@"; do
  case "$argument" in
    cluster) cluster=yes ;;
    all) cluster=yes; suites+=("$argument") ;;
    --quick) quick=(--quick) ;;
    *) suites+=("$argument") ;;
  esac
done
if [ "${#suites[@]}" -gt 0 ] || [ "$cluster" = no ]; then
  dotnet run -c Release --project bench/Millrace.Benchmarks -- report ${suites[@]+"${suites[@]}"} ${quick[@]+"${quick[@]}"}
fi
if [ "$cluster" = yes ]; then
  bench/cluster.sh ${quick[@]+"${quick[@]}"}
fi
