#!/usr/bin/env bash
# The main job: installs what is missing, builds praxis and runs the demo. Extra arguments go to
# the demo (try --help). When the run wrote a log folder (not --no-log), its plots are drawn there
# with scripts/plot-run.sh and their paths printed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DPRAXIS_BUILD_TESTS=OFF -DPRAXIS_BUILD_BENCHMARKS=OFF >/dev/null
# The other programs the README names are built too, so each of its commands works after this.
# praxis_demo depends on praxis-sim (--backend sim) where MuJoCo was found, so it comes along.
cmake --build "$root/build/release" --target praxis_demo praxis-fake-robot praxis_graph_demo \
      praxis_motion_demo praxis-fake-booster praxis-fake-aurora praxis-fake-tienkung praxis-script praxis-replay

# The demo's own "logs: <folder>" line says where the run went (whatever --log-folder was given).
# stdbuf keeps its output line by line, as on a terminal, although it goes through a pipe; tee
# ignores SIGINT so that Ctrl-C, which the demo handles by stopping cleanly, does not cut off the
# rest of its output.
output=$(mktemp)
trap 'rm -f "$output"' EXIT
status=0
stdbuf -oL "$root/build/release/examples/praxis_demo" "$@" | (trap '' INT; tee "$output") || status=$?
[[ $status -eq 0 ]] || exit "$status"
folder=$(sed -n 's/^logs: //p' "$output" | tail -n 1)
[[ -n "$folder" ]] || exit 0
echo
echo "plots of this run:"
bash "$root/scripts/plot-run.sh" "$folder"
