#!/usr/bin/env bash
# Installs what praxis needs to build and test, from Debian packages only. Idempotent: when every
# package is already installed it does nothing (and does not touch the network).
set -euo pipefail

packages=(
  build-essential cmake ninja-build g++ clang-14
  libboost-dev libeigen3-dev nlohmann-json3-dev libspdlog-dev catch2 libcli11-dev
  cyclonedds-dev cyclonedds-tools
  libclang-rt-14-dev  # clang's sanitizer and libFuzzer runtimes (only a Recommends of clang-14)
  iproute2            # ip netns / veth for the two-host test
  lld                 # LLVM's linker: scripts/test.sh links with it (about twice as fast as ld.bfd)
  libmujoco-dev       # physics simulation (praxis::sim); optional: the build skips it when absent
  # praxis::sim's offscreen renderer (required with MuJoCo): EGL headers and loader, Mesa's EGL
  # (surfaceless platform) and its llvmpipe CPU renderer, libpng for the pictures
  libegl-dev libegl-mesa0 libgl1-mesa-dri libpng-dev
  time
  # praxis::observe: MCAP chunk compression, and the live page's chart library (served as Debian installs it)
  libzstd-dev liblz4-dev libjs-chart.js
  # praxis::policy: ONNX models read and checked by Debian's ONNX library (protobuf underneath); the
  # tests build models with python3-onnx and numpy (Debian's python3, /usr/bin/python3)
  libonnx-dev libprotobuf-dev python3-onnx python3-numpy
  # praxis-policy import: YAML configs (python3-yaml) and TorchScript policies converted to ONNX
  # (python3-torch); its tests build TorchScript stand-ins with it
  python3-yaml python3-torch
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
