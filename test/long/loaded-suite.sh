#!/usr/bin/env bash
# The whole test suite on a loaded machine (issue 41, item 7): `npm test`'s vitest run while
# stress-ng keeps every core busy, several times in a row. A test that passes only on an idle
# machine fails here. Not part of CI (it takes the machine for as long as the suite runs, times
# RUNS); run it by hand before a release, on a machine nobody else is using:
#
#   test/long/loaded-suite.sh [runs=3] [cpu-workers=2]
#
# Needs Debian's stress-ng (apt-get install stress-ng) and a built dist/ (npm run build: the CLI
# tests run bin/zecrpc.js). Prints the load average before each run and one line per run; exits
# non-zero if any run failed, after all runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-3}"
workers="${2:-2}"
if ! command -v stress-ng >/dev/null 2>&1; then
  echo "stress-ng is not installed: apt-get install stress-ng" >&2
  exit 2
fi
if [ ! -f dist/src/cli.js ]; then
  echo "dist/ is missing: run npm run build first (the CLI tests run the compiled CLI)" >&2
  exit 2
fi
stress-ng --cpu "$workers" --cpu-method all --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null || true; wait "$stress" 2>/dev/null || true' EXIT
failed=0
for run in $(seq 1 "$runs"); do
  echo "run $run/$runs: load average $(cut -d' ' -f1-3 /proc/loadavg) with stress-ng --cpu $workers"
  report="$(mktemp)"
  status=0
  npx vitest run --reporter=dot --reporter=json --outputFile="$report" || status=$?
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const failed = r.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === "failed").map((a) => `${f.name}: ${a.fullName}`));
    console.log(`run ${process.argv[2]}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    for (const f of failed) console.log(`  failed: ${f}`);
  ' "$report" "$run" || true
  rm -f "$report"
  [ "$status" -eq 0 ] || failed=1
done
exit "$failed"
