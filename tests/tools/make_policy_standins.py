#!/usr/bin/python3
"""Writes the stand-ins praxis-policy's tests import: policies shaped like the published ones, with
seeded random weights (no third-party weights), and the outputs their own framework gives.

    /usr/bin/python3 make_policy_standins.py <folder>

<folder>/legged_gym_mlp/motion.pt    torch.jit.script of an actor MLP (legged_gym's
                                     export_policy_as_jit without memory): 47 -> 64 -> 64 -> 12, ELU
<folder>/legged_gym_lstm/motion.pt   legged_gym's PolicyExporterLSTM layout: submodules memory
                                     (LSTM 47 -> 64) and actor (64 -> 32 -> 12, ELU), buffers
                                     hidden_state and cell_state [1, 1, 64] updated in forward
<folder>/legged_gym_gru/motion.pt    rsl_rl's exporter layout for a GRU: normalizer (mean / std
                                     buffers), rnn (GRU 47 -> 48), actor (48 -> 32 -> 12), buffer
                                     hidden_state [1, 1, 48]
<folder>/isaaclab_mlp/policy.onnx    an Isaac Lab export's layout (opset 11, IR 6, obs [1, 480] ->
                                     actions [1, 29], Gemm + Elu, initializers actor.N.weight), built
                                     with onnx.helper: the G1 velocity task's 96 values x history 5
<folder>/isaaclab_phase/policy.onnx  the same layout for 110 values: base_ang_vel x 5, gravity,
                                     command, joints x 3 (29 each), gait phase
<folder>/isaaclab_legs/policy.onnx   45 values -> 12 actions: a legs-only policy, history 1

Each folder also has samples.json: {"steps": [{"obs": [...], "actions": [...]}, ...]}, observations
and the actions the policy's own framework computes (TorchScript for the .pt files with the state
carried from zero, numpy in float64 for the ONNX), for praxis' network to be compared on.

The TorchScript stand-ins need python3-torch; without it they are skipped and torch_missing.txt
says why (the tests that need them are then skipped with that reason).
"""

import json
import math
import pathlib
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

STEPS = 8


def write_samples(folder, steps):
    (folder / "samples.json").write_text(json.dumps({"steps": steps}))


def isaaclab_mlp(folder, obs=480, hidden=64, actions=29):
    """An Isaac Lab actor in ONNX: obs -> hidden (ELU) -> actions."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    sizes = [obs, hidden, actions]
    inits, nodes, layers = [], [], []
    x = "obs"
    for k in range(len(sizes) - 1):
        w = (rng.standard_normal((sizes[k + 1], sizes[k])) / math.sqrt(sizes[k])).astype(np.float32)
        b = (rng.standard_normal(sizes[k + 1]) * 0.1).astype(np.float32)
        layers.append((w, b))
        name = f"actor.{2 * k}"
        inits += [numpy_helper.from_array(w, f"{name}.weight"), numpy_helper.from_array(b, f"{name}.bias")]
        y = f"/actor/{name}/Gemm_output_0"
        nodes.append(helper.make_node("Gemm", [x, f"{name}.weight", f"{name}.bias"], [y], name=f"/actor/{name}/Gemm",
                                      alpha=1.0, beta=1.0, transB=1))
        x = y
        if k < len(sizes) - 2:
            y = f"/actor/actor.{2 * k + 1}/Elu_output_0"
            nodes.append(helper.make_node("Elu", [x], [y], name=f"/actor/actor.{2 * k + 1}/Elu", alpha=1.0))
            x = y
    nodes[-1].output[0] = "actions"
    graph = helper.make_graph(nodes, "main_graph",
                              [helper.make_tensor_value_info("obs", TensorProto.FLOAT, [1, obs])],
                              [helper.make_tensor_value_info("actions", TensorProto.FLOAT, [1, actions])], inits)
    model = helper.make_model(graph, producer_name="pytorch", opset_imports=[helper.make_opsetid("", 11)])
    model.ir_version = 6
    onnx.checker.check_model(model)
    onnx.save(model, folder / "policy.onnx")

    steps = []
    for _ in range(STEPS):
        o = rng.standard_normal((1, obs)).astype(np.float32)
        a = o.astype(np.float64)
        for k, (w, b) in enumerate(layers):
            a = a @ w.T.astype(np.float64) + b
            if k < len(layers) - 1:
                a = np.where(a > 0, a, np.expm1(np.minimum(a, 0.0)))
        steps.append({"obs": o.ravel().tolist(), "actions": a.ravel().tolist()})
    write_samples(folder, steps)


def torch_standins(root):
    import torch

    torch.manual_seed(11)

    def actor(sizes):
        layers = []
        for k in range(len(sizes) - 1):
            layers.append(torch.nn.Linear(sizes[k], sizes[k + 1]))
            if k < len(sizes) - 2:
                layers.append(torch.nn.ELU())
        return torch.nn.Sequential(*layers)

    class LeggedGymLstm(torch.nn.Module):
        """legged_gym's PolicyExporterLSTM: the LSTM's state lives in buffers the forward updates."""

        def __init__(self):
            super().__init__()
            self.actor = actor([64, 32, 12])
            self.memory = torch.nn.LSTM(47, 64, 1)
            self.register_buffer("hidden_state", torch.zeros(1, 1, 64))
            self.register_buffer("cell_state", torch.zeros(1, 1, 64))

        def forward(self, x):
            out, (h, c) = self.memory(x.unsqueeze(0), (self.hidden_state, self.cell_state))
            self.hidden_state[:] = h
            self.cell_state[:] = c
            return self.actor(out.squeeze(0))

        @torch.jit.export
        def reset_memory(self):
            self.hidden_state[:] = 0.0
            self.cell_state[:] = 0.0

    class Normalizer(torch.nn.Module):
        """rsl_rl's EmpiricalNormalization at inference: (x - mean) / (std + eps)."""

        def __init__(self, size):
            super().__init__()
            self.eps = 1e-2
            self.register_buffer("_mean", torch.randn(1, size) * 0.3)
            self.register_buffer("_std", torch.rand(1, size) + 0.5)

        def forward(self, x):
            return (x - self._mean) / (self._std + self.eps)

    class RslRlGru(torch.nn.Module):
        """rsl_rl's policy exporter for a GRU: normalizer -> rnn -> actor, hidden_state in a buffer."""

        def __init__(self):
            super().__init__()
            self.normalizer = Normalizer(47)
            self.rnn = torch.nn.GRU(47, 48, 1)
            self.actor = actor([48, 32, 12])
            self.register_buffer("hidden_state", torch.zeros(1, 1, 48))

        def forward(self, x):
            out, h = self.rnn(self.normalizer(x).unsqueeze(0), self.hidden_state)
            self.hidden_state[:] = h
            return self.actor(out.squeeze(0))

    rng = np.random.default_rng(5)
    for name, module in (("legged_gym_mlp", actor([47, 64, 64, 12])), ("legged_gym_lstm", LeggedGymLstm()),
                         ("legged_gym_gru", RslRlGru())):
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        # Trained weights are not the initializer's: spread them so every unit matters.
        with torch.no_grad():
            for p in module.parameters():
                p.add_(torch.randn_like(p) * 0.2)
        scripted = torch.jit.script(module.eval())
        scripted.save(str(folder / "motion.pt"))
        steps = []
        for _ in range(STEPS):
            o = rng.standard_normal((1, 47)).astype(np.float32)
            with torch.no_grad():
                a = scripted(torch.from_numpy(o)).numpy()
            steps.append({"obs": o.ravel().tolist(), "actions": a.ravel().astype(np.float64).tolist()})
        write_samples(folder, steps)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    root = pathlib.Path(sys.argv[1])
    root.mkdir(parents=True, exist_ok=True)
    isaaclab_mlp(root / "isaaclab_mlp")
    isaaclab_mlp(root / "isaaclab_phase", obs=110)
    isaaclab_mlp(root / "isaaclab_legs", obs=45, actions=12)
    missing = root / "torch_missing.txt"
    try:
        import torch  # noqa: F401
    except ImportError as e:
        missing.write_text(f"python3-torch is not installed ({e}): scripts/install-deps.sh installs it\n")
    else:
        if missing.exists():
            missing.unlink()
        torch_standins(root)
    (root / "done").write_text("ok\n")


if __name__ == "__main__":
    main()
