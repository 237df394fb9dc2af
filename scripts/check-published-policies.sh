#!/usr/bin/env bash
# Imports every policy a checkout of unitree_rl_gym or unitree_rl_lab publishes for a robot praxis has,
# runs each in praxis (praxis_demo --backend mujoco: praxis' own model and, where it loads, the
# published one) and in the reference loop (the authors' deploy loop on MuJoCo's C API,
# tests/policy/reference_loop.*), and prints them side by side: seconds upright, distance and heading
# error at 0.5 m/s, and drift at command 0, over 20 s after the policy is on its own. The reference
# starts from the physics state praxis handed over to the policy in (the run folder's
# handover_state.json: the same plant from the same state), and the two end points are compared.
#
#   bash scripts/check-published-policies.sh ~/src/unitree_rl_gym [--build build/check] [--out DIR]
#
# The checkout is the user's (praxis ships no third-party weights or models). Nothing in it is
# changed: a published model that names a mesh the checkout lacks (a snapshot without its largest
# files) is loaded from a folder of links beside --out in which another mesh of the same body stands
# in for the missing one; the output says which.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() {
  sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit "${1:-0}"
}

checkout=""
build="$root/build/check"
out=""
seconds=20
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    -*) echo "check-published-policies: unknown option $1" >&2; usage 2 ;;
    *) [[ -z $checkout ]] || { echo "check-published-policies: one checkout at a time" >&2; exit 2; }
       checkout=$1; shift ;;
  esac
done
[[ -n $checkout ]] || usage 2
[[ -d $checkout ]] || { echo "check-published-policies: $checkout: not a folder" >&2; exit 2; }
checkout=$(cd "$checkout" && pwd)
out=${out:-$root/out/published-policies/$(date -u +%Y%m%d_%H%M%S)}
mkdir -p "$out/deploy" "$out/runs"

# The programs: built once in Release unless they are there.
tool="$build/bin/praxis-policy"
demo="$build/examples/praxis_demo"
reference="$build/tests/praxis-reference-loop"
if [[ ! -x $tool || ! -x $demo || ! -x $reference ]]; then
  bash "$root/scripts/install-deps.sh"
  echo "== building praxis-policy, praxis_demo and praxis-reference-loop in $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRAXIS_BUILD_TESTS=ON \
        -DPRAXIS_BUILD_EXAMPLES=ON >/dev/null
  cmake --build "$build" --target praxis-policy praxis_demo praxis-reference-loop
fi

# Which policies the checkout publishes, as "kind|robot|name|policy|config" lines. Robots praxis has
# not (unitree_rl_gym's H1) are named and left out.
declare -a policies=()
praxis_robot() {  # the checkout's robot folder name -> praxis_demo's model name, or nothing
  case $1 in
    g1) echo g1 ;;
    h1_2) echo h1_2 ;;
    go2) echo go2 ;;
    *) echo "" ;;
  esac
}
if [[ -d $checkout/deploy/pre_train ]]; then
  for pt in "$checkout"/deploy/pre_train/*/motion.pt; do
    [[ -f $pt ]] || continue
    r=$(basename "$(dirname "$pt")")
    robot=$(praxis_robot "$r")
    if [[ -z $robot ]]; then
      echo "-- $pt: praxis has no robot '$r'; left out"
      continue
    fi
    for kind in deploy_real deploy_mujoco; do
      cfg="$checkout/deploy/$kind/configs/$r.yaml"
      [[ -f $cfg ]] && policies+=("legged_gym|$robot|${r}_$kind|$pt|$cfg")
    done
  done
fi
if [[ -d $checkout/deploy/robots ]]; then
  while IFS= read -r onnx; do
    dir=$(dirname "$(dirname "$onnx")")
    r=$(echo "$onnx" | sed -E 's#.*/deploy/robots/([^/]+)/.*#\1#')
    robot=$(praxis_robot "$r")
    name="${r}_$(basename "$(dirname "$dir")")_$(basename "$dir")"
    if [[ -z $robot ]]; then
      echo "-- $onnx: praxis has no robot '$r'; left out"
      continue
    fi
    [[ -f $dir/params/deploy.yaml ]] && policies+=("isaaclab|$robot|$name|$onnx|$dir/params/deploy.yaml")
  done < <(find "$checkout/deploy/robots" -path '*/exported/policy.onnx' | sort)
fi
if [[ ${#policies[@]} -eq 0 ]]; then
  echo "check-published-policies: $checkout publishes no policy this script knows (unitree_rl_gym's" \
       "deploy/pre_train/<robot>/motion.pt or unitree_rl_lab's deploy/robots/<robot>/config/policy/.../exported/policy.onnx)" >&2
  exit 2
fi

# The published model of a robot, where the checkout has one: unitree_rl_gym's scene (its 12-joint G1).
published_model() {
  case $1 in
    g1) echo "$checkout/resources/robots/g1_description/scene.xml" ;;
    h1_2) echo "$checkout/resources/robots/h1_2/scene.xml" ;;
    *) echo "" ;;
  esac
}

# A model whose meshes are all there, or a folder of links in which a mesh of the same body stands
# in for each missing one (torso_link_23dof_rev_1_0.STL <- torso_link_rev_1_0.STL).
loadable_model() {  # model file -> the file to load; says what it stood in
  local model=$1 folder meshdir missing=()
  folder=$(dirname "$model")
  meshdir=$(grep -ho 'meshdir="[^"]*"' "$folder"/*.xml | head -1 | sed -E 's/meshdir="([^"]*)"/\1/')
  meshdir=${meshdir%/}
  while IFS= read -r f; do
    [[ -e $folder/$meshdir/$f ]] || missing+=("$f")
  done < <(grep -ho '<mesh [^>]*file="[^"]*"' "$folder"/*.xml | sed -E 's/.*file="([^"]*)".*/\1/' | sort -u)
  if [[ ${#missing[@]} -eq 0 ]]; then
    echo "$model"
    return
  fi
  local shadow="$out/models/$(basename "$folder")"
  rm -rf "$shadow"
  mkdir -p "$shadow/$meshdir"
  for f in "$folder"/*; do [[ $(basename "$f") == "$meshdir" ]] || ln -s "$f" "$shadow/"; done
  for f in "$folder/$meshdir"/*; do ln -s "$f" "$shadow/$meshdir/"; done
  for m in "${missing[@]}"; do
    # The mesh of the same body ("torso_link...") whose name shares the most with the missing one at
    # either end: torso_link_rev_1_0.STL for torso_link_23dof_rev_1_0.STL.
    local body=${m%%_link*} stand_in=""
    stand_in=$(/usr/bin/python3 -c '
import os, sys
folder, missing, body = sys.argv[1:4]
def shared(a, b):
    return len(os.path.commonprefix([a, b])) + len(os.path.commonprefix([a[::-1], b[::-1]]))
names = [n for n in os.listdir(folder) if n.startswith(body + "_link") and n != missing]
print(os.path.join(folder, max(names, key=lambda n: shared(n, missing))) if names else "")' "$folder/$meshdir" "$m" "$body")
    if [[ -z $stand_in ]]; then
      echo "check-published-policies: $folder/$meshdir/$m is missing and no mesh of the body '$body' can stand in" >&2
      echo ""
      return
    fi
    ln -s "$stand_in" "$shadow/$meshdir/$m"
    echo "-- $m is missing from the checkout: $(basename "$stand_in") stands in for it (links in $shadow)" >&2
  done
  echo "$shadow/$(basename "$model")"
}

# The run folder's hand-over state (the physics state the policy's first inference saw).
handover_state() {  # folder -> file, or nothing
  ls "$1"/*/handover_state.json 2>/dev/null | tail -1
}

# Metrics of a praxis_demo run folder's base_trajectory.csv over the `seconds` after the hand-over,
# and its end point.
demo_metrics() {  # folder -> "upright distance direction end_x end_y"
  /usr/bin/python3 - "$1" "$seconds" <<'EOF'
import csv, glob, json, math, sys
files = sorted(glob.glob(sys.argv[1] + "/*/base_trajectory.csv"))
states = sorted(glob.glob(sys.argv[1] + "/*/handover_state.json"))
if not files or not states:
    print("- - - - -"); sys.exit()
t0, span = json.load(open(states[-1]))["elapsed_s"], float(sys.argv[2])
rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(files[-1]))]
# Samples every 20 ms: the first one at the hand-over's cycle or the one before (a step apart).
w = [r for r in rows if t0 - 0.01 <= r["time"] <= t0 + span + 0.01]
upright = 0.0
for r in w:
    if r["tilt"] > 1.0:
        break
    upright = r["time"] - t0
a, b = w[0], w[-1]
d = math.hypot(b["x"] - a["x"], b["y"] - a["y"])
# The heading error: the direction travelled against the robot's heading at the start of the window.
direction = math.degrees(math.atan2(b["y"] - a["y"], b["x"] - a["x"]) - a["yaw"]) if d > 0.05 else 0.0
direction = (direction + 180.0) % 360.0 - 180.0
print(f"{upright:.1f} {d:.2f} {direction:.0f} {b['x']:.4f} {b['y']:.4f}")
EOF
}

apart() {  # x1 y1 x2 y2 -> their distance, or "-"
  /usr/bin/python3 -c 'import math, sys
try:
    print(f"{math.hypot(float(sys.argv[1]) - float(sys.argv[3]), float(sys.argv[2]) - float(sys.argv[4])):.2f}")
except ValueError:
    print("-")' "$@"
}

reference_metrics() {  # json -> "upright distance direction end_x end_y"
  /usr/bin/python3 -c '
import json, math, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception:
    print("- - - - -"); sys.exit()
s, e = j["start"], j["end"]
d = math.hypot(e["x"] - s["x"], e["y"] - s["y"])
direction = math.degrees(math.atan2(e["y"] - s["y"], e["x"] - s["x"]) - s["yaw"]) if d > 0.05 else 0.0
direction = (direction + 180.0) % 360.0 - 180.0
up = j["seconds_upright"]
ex, ey = e["x"], e["y"]
print(f"{up:.1f} {d:.2f} {direction:.0f} {ex:.4f} {ey:.4f}")' "$1" || echo "- - - - -"
}

# praxis_demo's story: R2 at 12 s, the policy takes over at 40 s and the band lets go of the robot
# at once then (the reference loop has no band), damping at 64 s: the window is the 20 s after the
# hand-over.
duration=80
release=40
rows=()
for p in "${policies[@]}"; do
  IFS='|' read -r kind robot name policy config <<<"$p"
  folder="$out/deploy/$name"
  echo "== $name: praxis-policy import --from $kind --robot $robot"
  if ! "$tool" import --from "$kind" --policy "$policy" --config "$config" --robot "$robot" --out "$folder" --force \
      >"$out/$name.import.txt" 2>&1; then
    echo "   refused: $(tail -1 "$out/$name.import.txt")"
    rows+=("$name|$robot|refused: $(tail -1 "$out/$name.import.txt" | cut -c1-100)")
    continue
  fi
  models=("praxis:")
  published=$(published_model "$robot")
  if [[ -n $published && -f $published ]]; then
    loadable=$(loadable_model "$published")
    [[ -n $loadable ]] && models+=("published:$loadable")
  fi
  for m in "${models[@]}"; do
    label=${m%%:*}
    file=${m#*:}
    model_args=()
    [[ -n $file ]] && model_args=(--model "$file")
    ref_model=${file:-$root/models/g1_29dof.xml}
    [[ $robot == go2 && -z $file ]] && ref_model=$root/models/go2.xml
    cells=()
    for command in 0.5,0,0 0,0,0; do
      run="$out/runs/${name}_${label}_$command"
      rm -rf "$run"
      band=()
      [[ $robot != go2 ]] && band=(--band "0:feet,$release:cut")
      "$demo" --robot "$robot" --backend mujoco "${model_args[@]}" --controller policy --deploy "$folder/deploy.json" \
          --command "$command" --duration "$duration" "${band[@]}" --log-folder "$run" >"$run.txt" 2>&1 || true
      cells+=("$(demo_metrics "$run" || echo "- - - - -")")
      state=$(handover_state "$run")
      if [[ -n $state ]]; then
        "$reference" --model "$ref_model" --deploy "$folder/deploy.json" --command "$command" --duration "$seconds" \
            --initial-state "$state" >"$run.reference.json" 2>"$run.reference.err" || true
      else
        echo "   $run: no hand-over (see $run.txt): the reference loop is not run" >&2
        : >"$run.reference.json"
      fi
      cells+=("$(reference_metrics "$run.reference.json")")
    done
    rows+=("$name|$robot|$label|${cells[0]}|${cells[1]}|${cells[2]}|${cells[3]}")
  done
done

echo
echo "Over ${seconds} s with the policy on its own, both loops from the physics state of praxis' hand-over (the band"
echo "let go then). upright s | distance m | heading error deg at 0.5 m/s; drift m at 0; apart: the end points' distance."
printf '%-28s %-6s %-10s | %-22s %-22s %-6s | %-8s %-9s %-6s\n' policy robot model "praxis 0.5 m/s" \
       "reference 0.5 m/s" apart "praxis 0" "reference" apart
for r in "${rows[@]}"; do
  IFS='|' read -r name robot label a b c d <<<"$r"
  if [[ $label == refused:* ]]; then
    printf '%-28s %-6s %s\n' "$name" "$robot" "$label"
    continue
  fi
  read -r au ad ah ax ay <<<"$a"
  read -r bu bd bh bx by <<<"$b"
  read -r cu cd ch cx cy <<<"$c"
  read -r du dd dh dx dy <<<"$d"
  printf '%-28s %-6s %-10s | %5s %6s %5s      %5s %6s %5s      %6s | %6s   %6s    %6s\n' "$name" "$robot" "$label" \
         "$au" "$ad" "$ah" "$bu" "$bd" "$bh" "$(apart "$ax" "$ay" "$bx" "$by")" "$cd" "$dd" "$(apart "$cx" "$cy" "$dx" "$dy")"
done
echo
echo "deploy folders, runs (run folders with pictures and base_trajectory.csv) and logs: $out"
