#!/usr/bin/env bash
# Installs what scripts/bench.sh needs beyond install-deps.sh: gnuplot without X, for the PNGs, and
# rt-tests for cyclictest (the machine's wake-up floor beside praxis' series).
# Debian packages only; does nothing (and does not touch the network) when they are installed.
set -euo pipefail

packages=(gnuplot-nox rt-tests)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-bench-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

echo "install-bench-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
