#!/usr/bin/env bash
# The test-only clients that robot tools publish on npm, which the tests run against praxis
# (Foxglove's protocol client, the MCAP reader, puppeteer-core driving Debian's Chromium, ONNX
# Runtime's onnxruntime-node; tests/js/README.md): Node.js and
# Chromium from Debian when missing, then exactly the versions in tests/js/package-lock.json
# (`npm ci --ignore-scripts`: no install script runs, no browser is downloaded). Idempotent: nothing
# is fetched when node_modules already matches the lock file.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
command -v chromium >/dev/null || missing+=(chromium)
if [[ ${#missing[@]} -gt 0 ]]; then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-js-test-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
  fi
  echo "install-js-test-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

cd "$root/tests/js"
# The lock file's hash, written after a successful npm ci: node_modules matches the lock while it holds.
want=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.praxis-lock-sha256
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
  exit 0
fi
echo "install-js-test-deps: npm ci in tests/js"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
echo "$want" > "$stamp"
