#!/usr/bin/env bash
# Foxglove's own writer (@mcap/core McapWriter, tests/js/mcap_write.mjs) makes a file; praxis' reader
# must read it whole (its CRCs, indexes and summary checked) and find what the writer says it wrote.
#   mcap_foreign_test.sh <observe_mcap_tool> <none|zstd> <node> <tests/js folder>
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
dir=$(mktemp -d "${TMPDIR:-/tmp}/praxis_mcap_foreign.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$node" "$js/mcap_write.mjs" "$dir/foxglove.mcap" "$compression" "$dir/expect.json"
"$tool" read "$dir/foxglove.mcap" "$dir/expect.json"
echo PASS
