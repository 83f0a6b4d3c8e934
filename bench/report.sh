#!/usr/bin/env bash
# Regenerates docs/benchmarks: bench/report.sh [json|json-scan|base64|parallel|nbt|compact|all ...] [--quick]
# Full runs rewrite docs/benchmarks/<suite>.md, its charts and README.md; --quick runs every benchmark once
# and writes the reports under BenchmarkDotNet.Artifacts/quick-reports instead.
set -euo pipefail
cd "$(dirname "$0")/.."
exec dotnet run -c Release --project bench/Millrace.Benchmarks -- report "$@"
