#!/usr/bin/env bash
# The main job: installs what is missing, builds praxis and runs the demo. Extra arguments go to
# the demo (try --help).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DPRAXIS_BUILD_TESTS=OFF -DPRAXIS_BUILD_BENCHMARKS=OFF >/dev/null
# The other programs the README names are built too, so each of its commands works after this.
cmake --build "$root/build/release" --target praxis_demo praxis-fake-robot praxis_graph_demo \
      praxis_motion_demo praxis-fake-booster praxis-script
exec "$root/build/release/examples/praxis_demo" "$@"
