#!/usr/bin/python3
"""Writes praxis' example policy for one robot: a small ELU network in ONNX whose input and output
sizes follow the robot's deploy file (examples/policy/<robot>/deploy.json).

It stands in for a policy trained in simulation: its weights are random (seeded by the robot's
name, so every build writes the same bytes) and small, so its action is a perturbation of a few
hundredths of a radian around the deploy file's default pose that moves with what the robot
senses. It shows the path from policy.onnx to a robot; it does not walk.

    /usr/bin/python3 make_example_policy.py --deploy g1/deploy.json --out build/g1/policy.onnx

Needs Debian's python3-onnx and python3-numpy.
"""
import argparse
import hashlib
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TERM_SIZES = {"base_ang_vel": 3, "projected_gravity": 3, "velocity_command": 3, "phase": 2}
PER_JOINT = {"joint_pos_rel", "joint_vel_rel", "last_action"}
HIDDEN = (64, 64)


def observation_size(deploy, joints):
    obs = deploy["observation"]
    per_frame = 0
    for term in obs["terms"]:
        name = term["name"]
        per_frame += joints if name in PER_JOINT else TERM_SIZES[name]
    return per_frame * obs.get("history_length", 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deploy", required=True, help="the robot's deploy.json")
    parser.add_argument("--out", required=True, help="where policy.onnx goes")
    args = parser.parse_args()
    with open(args.deploy) as f:
        deploy = json.load(f)
    joints = len(deploy["joint_names"])
    inputs = observation_size(deploy, joints)
    seed = int.from_bytes(hashlib.sha256(",".join(deploy["joint_names"]).encode()).digest()[:4], "little")
    rng = np.random.default_rng(seed)

    sizes = (inputs,) + HIDDEN + (joints,)
    nodes, initializers = [], []
    x = "obs"
    for layer, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        last = layer == len(sizes) - 2
        # Hidden layers as a trained network's look (unit-variance activations); the last one small,
        # so the action stays a few hundredths around zero.
        std = (0.05 if last else 1.0) / np.sqrt(fan_in)
        w = rng.normal(0.0, std, size=(fan_out, fan_in)).astype(np.float32)
        b = rng.normal(0.0, 0.02 if last else 0.1, size=(fan_out,)).astype(np.float32)
        initializers += [numpy_helper.from_array(w, f"actor.{2 * layer}.weight"),
                         numpy_helper.from_array(b, f"actor.{2 * layer}.bias")]
        y = "actions" if last else f"/actor/Gemm_{layer}"
        # As exporters write a linear layer: Gemm with the weight transposed.
        nodes.append(helper.make_node("Gemm", [x, f"actor.{2 * layer}.weight", f"actor.{2 * layer}.bias"], [y],
                                      name=f"/actor/{2 * layer}/Gemm", transB=1))
        if not last:
            z = f"/actor/Elu_{layer}"
            nodes.append(helper.make_node("Elu", [y], [z], name=f"/actor/{2 * layer + 1}/Elu", alpha=1.0))
            x = z
        else:
            x = y

    graph = helper.make_graph(
        nodes, "praxis_example_policy",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", inputs])],
        [helper.make_tensor_value_info("actions", TensorProto.FLOAT, ["batch", joints])],
        initializers)
    model = helper.make_model(graph, producer_name="praxis examples/policy/make_example_policy.py",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, args.out)
    print(f"{args.out}: {inputs} -> {' -> '.join(str(h) for h in HIDDEN)} -> {joints} (ELU), seed {seed}")


if __name__ == "__main__":
    sys.exit(main())
