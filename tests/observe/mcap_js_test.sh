#!/usr/bin/env bash
# praxis writes an MCAP file (and a copy cut inside its fourth chunk); Foxglove's @mcap/core reads
# both and checks CRCs, indexes, statistics and message counts against what praxis says it wrote.
#   mcap_js_test.sh <observe_mcap_tool> <none|zstd|lz4> <node> <tests/js folder>
set -euo pipefail
tool=$1 compression=$2 node=$3 js=$4
if [[ ! -x $node ]]; then
  echo "FAIL: Node.js not found (PRAXIS_NODE='$node'): install node and run scripts/install-js-test-deps.sh"
  exit 1
fi
if [[ ! -d $js/node_modules/@mcap/core ]]; then
  echo "FAIL: $js/node_modules has no @mcap/core: run scripts/install-js-test-deps.sh"
  exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/praxis_mcap_js.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$tool" write "$dir/run.mcap" "$compression" "$dir/expect.json"
"$node" "$js/mcap_check.mjs" "$dir/run.mcap" "$dir/expect.json"
"$node" "$js/mcap_check.mjs" "$dir/run.mcap.cut.mcap" "$dir/expect.json.cut.json"
echo PASS
