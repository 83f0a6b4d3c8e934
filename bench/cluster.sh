#!/usr/bin/env bash
# Regenerates docs/benchmarks/cluster.md (Millrace.Cluster's coordination overhead, scaling and recovery); --quick runs
# each case once and writes under BenchmarkDotNet.Artifacts/quick-reports instead.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--quick" ]; then
  mkdir -p BenchmarkDotNet.Artifacts/quick-reports
  exec dotnet run -c Release --project bench/Millrace.ClusterBench -- --quick --output BenchmarkDotNet.Artifacts/quick-reports/cluster.md
fi
exec dotnet run -c Release --project bench/Millrace.ClusterBench
