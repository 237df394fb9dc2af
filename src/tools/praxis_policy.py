#!/usr/bin/python3
"""praxis-policy's Python half: the two things only Python reads (docs/policy.md, section 1).

    praxis_policy.py yaml FILE
        FILE (YAML) as JSON on stdout, keys in the file's order. Isaac Lab's deploy.yaml carries
        `!!python/object/apply:builtins.slice [start, stop, step]`: it becomes
        {"__python_slice__": [start, stop, step]}; `!!python/tuple` becomes a list. Any other Python
        tag is refused: nothing in the file is executed.

    praxis_policy.py onnx-samples --model policy.onnx --report r.json [--steps 6] [--carry h_out:h_in ...]
        Random inputs for an ONNX model and its outputs evaluated here (numpy, the ONNX operator
        semantics), the recurrent state carried: what praxis' own network is compared on.

    praxis_policy.py torch --policy motion.pt --obs 47 --actions 12 --out policy.onnx --report r.json
        [--obs-source TEXT]
        Exports a TorchScript policy to ONNX (opset 17, every shape fixed, batch 1). An MLP is
        exported as it is. rsl_rl's recurrent exporter (legged_gym's PolicyExporterLSTM: buffers
        hidden_state / cell_state, submodules memory or rnn, actor, optionally normalizer) keeps the
        LSTM's or GRU's state inside the module; it is re-exported with the state as inputs and
        outputs: obs, h_in, c_in -> actions, h_out, c_out (GRU: obs, h_in -> actions, h_out).
        Before anything is kept, the ONNX file passes onnx.checker and is evaluated here (numpy, the
        ONNX operator semantics) against the TorchScript module on random observations over several
        steps with the state carried; a disagreement is refused with the difference. The report
        (JSON) names the kind, the tensors, the recurrent pairs, the largest difference and the
        samples (inputs and TorchScript's outputs per step) for praxis' own network to be compared on.

Exit 0 on success; 2 with one message on stderr when the input is refused.
Needs Debian's python3-yaml; the torch command also python3-torch, python3-onnx and python3-numpy.
Run with Debian's /usr/bin/python3.
"""

import argparse
import json
import math
import sys


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


# ---- YAML -> JSON --------------------------------------------------------------------------------

SLICE_KEY = "__python_slice__"


def yaml_to_json(path):
    try:
        import yaml
    except ImportError as e:
        fail(f"{path}: reading YAML needs Debian's python3-yaml (scripts/install-deps.sh): {e}")

    class Loader(yaml.SafeLoader):
        """Safe loading plus the two data-only Python tags Isaac Lab's exporter writes."""

    def construct_slice(loader, node):
        if isinstance(node, yaml.SequenceNode):
            args = loader.construct_sequence(node, deep=True)
        elif isinstance(node, yaml.MappingNode):
            args = loader.construct_mapping(node, deep=True).get("args", [])
        else:
            args = [loader.construct_scalar(node)]
        args = list(args)
        if len(args) == 1:  # slice(stop)
            args = [None, args[0], None]
        if len(args) == 2:
            args.append(None)
        if len(args) != 3 or not all(a is None or isinstance(a, int) for a in args):
            mark = node.start_mark
            fail(f"{path}:{mark.line + 1}: expected builtins.slice with up to 3 whole numbers or null, found {args!r}")
        return {SLICE_KEY: args}

    def construct_tuple(loader, node):
        return loader.construct_sequence(node, deep=True)

    Loader.add_constructor("tag:yaml.org,2002:python/object/apply:builtins.slice", construct_slice)
    Loader.add_constructor("tag:yaml.org,2002:python/tuple", construct_tuple)

    try:
        with open(path, "r", encoding="utf-8") as f:
            data = yaml.load(f, Loader=Loader)
    except OSError as e:
        fail(f"{path}: cannot be read ({e.strerror})")
    except yaml.constructor.ConstructorError as e:
        mark = e.problem_mark
        where = f":{mark.line + 1}" if mark is not None else ""
        fail(f"{path}{where}: {e.problem} (praxis reads plain YAML, Python's builtins.slice and tuple tags; "
             "nothing else is constructed)")
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e)
        fail(f"{path}{where}: not valid YAML ({problem})")
    except UnicodeDecodeError as e:
        fail(f"{path}: not a text file ({e})")

    def check_finite(value, at):
        if isinstance(value, float) and not math.isfinite(value):
            fail(f'{path}: key "{at or "/"}": expected a finite number, found {value}')
        if isinstance(value, dict):
            for k, v in value.items():
                check_finite(v, f"{at}/{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                check_finite(v, f"{at}/{i}")

    check_finite(data, "")
    json.dump(data, sys.stdout, default=str)
    sys.stdout.write("\n")


# ---- ONNX evaluation (numpy, float64), for the check of the export -------------------------------

def evaluate(model, feeds):
    """Runs `model` (onnx.ModelProto) on `feeds` (name -> array); returns every graph output."""
    import numpy as np
    from onnx import helper, numpy_helper

    values = {name: np.asarray(v, dtype=np.float64) for name, v in feeds.items()}
    for init in model.graph.initializer:
        values[init.name] = numpy_helper.to_array(init).astype(np.float64) \
            if numpy_helper.to_array(init).dtype.kind == "f" else numpy_helper.to_array(init)

    def sigmoid(x):
        return 1.0 / (1.0 + np.exp(-x))

    for node in model.graph.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        ins = [values[n] if n else None for n in node.input]
        op = node.op_type

        def unsupported(what):
            raise NotImplementedError(f"node '{node.name}' ({op}): {what}")

        if op == "Constant":
            if "value" not in attrs:
                unsupported("a Constant without a tensor value")
            arr = numpy_helper.to_array(attrs["value"])
            out = [arr.astype(np.float64) if arr.dtype.kind == "f" else arr]
        elif op == "Identity":
            out = [ins[0]]
        elif op in ("Unsqueeze", "Squeeze"):
            axes = attrs.get("axes")
            if axes is None and len(ins) > 1 and ins[1] is not None:
                axes = [int(a) for a in ins[1]]
            x = ins[0]
            if op == "Unsqueeze":
                rank = x.ndim + len(axes)
                for a in sorted(a % rank for a in axes):
                    x = np.expand_dims(x, a)
            else:
                x = np.squeeze(x, axis=tuple(a % x.ndim for a in axes)) if axes is not None else np.squeeze(x)
            out = [x]
        elif op == "Reshape":
            shape = [int(d) for d in ins[1]]
            shape = [ins[0].shape[i] if d == 0 else d for i, d in enumerate(shape)]
            out = [ins[0].reshape(shape)]
        elif op == "Flatten":
            axis = attrs.get("axis", 1) % max(ins[0].ndim, 1)
            out = [ins[0].reshape(int(np.prod(ins[0].shape[:axis])), -1)]
        elif op == "Transpose":
            out = [np.transpose(ins[0], attrs.get("perm"))]
        elif op == "Concat":
            out = [np.concatenate(ins, axis=attrs["axis"])]
        elif op == "Slice":
            x = ins[0]
            starts, ends = ins[1], ins[2]
            axes = ins[3] if len(ins) > 3 and ins[3] is not None else range(len(starts))
            steps = ins[4] if len(ins) > 4 and ins[4] is not None else [1] * len(starts)
            index = [slice(None)] * x.ndim
            for s, e, a, st in zip(starts, ends, axes, steps):
                index[int(a)] = slice(int(s), int(e), int(st))
            out = [x[tuple(index)]]
        elif op == "Gemm":
            a, b = ins[0], ins[1]
            if attrs.get("transA", 0):
                a = a.T
            if attrs.get("transB", 0):
                b = b.T
            y = attrs.get("alpha", 1.0) * (a @ b)
            if len(ins) > 2 and ins[2] is not None:
                y = y + attrs.get("beta", 1.0) * ins[2]
            out = [y]
        elif op == "MatMul":
            out = [np.matmul(ins[0], ins[1])]
        elif op in ("Add", "Sub", "Mul", "Div"):
            f = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}[op]
            out = [f(ins[0], ins[1])]
        elif op == "Neg":
            out = [-ins[0]]
        elif op == "Relu":
            out = [np.maximum(ins[0], 0.0)]
        elif op == "Elu":
            alpha = attrs.get("alpha", 1.0)
            x = ins[0]
            out = [np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0.0)) - 1.0))]
        elif op == "LeakyRelu":
            alpha = attrs.get("alpha", 0.01)
            out = [np.where(ins[0] >= 0, ins[0], alpha * ins[0])]
        elif op == "Selu":
            alpha = attrs.get("alpha", 1.67326319217681884765625)
            gamma = attrs.get("gamma", 1.05070102214813232421875)
            x = ins[0]
            out = [gamma * np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0.0)) - 1.0))]
        elif op == "Tanh":
            out = [np.tanh(ins[0])]
        elif op == "Sigmoid":
            out = [sigmoid(ins[0])]
        elif op == "Softsign":
            out = [ins[0] / (1.0 + np.abs(ins[0]))]
        elif op == "Clip":
            lo = ins[1] if len(ins) > 1 and ins[1] is not None else attrs.get("min", -np.inf)
            hi = ins[2] if len(ins) > 2 and ins[2] is not None else attrs.get("max", np.inf)
            out = [np.clip(ins[0], lo, hi)]
        elif op in ("LSTM", "GRU"):
            known = {"hidden_size", "direction", "linear_before_reset", "layout"}
            for name in attrs:
                if name not in known:
                    unsupported(f"attribute '{name}'")
            if attrs.get("direction", b"forward") not in (b"forward", "forward"):
                unsupported("a direction other than forward")
            if attrs.get("layout", 0) != 0:
                unsupported("layout 1")
            hidden = attrs["hidden_size"]
            x, w, r = ins[0], ins[1][0], ins[2][0]
            gates = 4 if op == "LSTM" else 3
            b = ins[3][0] if len(ins) > 3 and ins[3] is not None else np.zeros(2 * gates * hidden)
            if len(ins) > 4 and ins[4] is not None and not np.all(ins[4] == x.shape[0]):
                unsupported("sequence_lens shorter than the sequence")
            batch = x.shape[1]
            h = ins[5][0] if len(ins) > 5 and ins[5] is not None else np.zeros((batch, hidden))
            wb, rb = b[:gates * hidden], b[gates * hidden:]
            ys = []
            if op == "LSTM":
                c = ins[6][0] if len(ins) > 6 and ins[6] is not None else np.zeros((batch, hidden))
                p = ins[7][0] if len(ins) > 7 and ins[7] is not None else np.zeros(3 * hidden)
                pi, po, pf = p[:hidden], p[hidden:2 * hidden], p[2 * hidden:]
                for t in range(x.shape[0]):
                    g = x[t] @ w.T + h @ r.T + wb + rb  # gate order i, o, f, c
                    i = sigmoid(g[:, :hidden] + pi * c)
                    f = sigmoid(g[:, 2 * hidden:3 * hidden] + pf * c)
                    cc = np.tanh(g[:, 3 * hidden:])
                    c = f * c + i * cc
                    o = sigmoid(g[:, hidden:2 * hidden] + po * c)
                    h = o * np.tanh(c)
                    ys.append(h)
                out = [np.stack(ys)[:, None], h[None], c[None]]
            else:
                before = attrs.get("linear_before_reset", 0)
                for t in range(x.shape[0]):
                    gx = x[t] @ w.T + wb  # gate order z, r, h
                    gh = h @ r.T
                    z = sigmoid(gx[:, :hidden] + gh[:, :hidden] + rb[:hidden])
                    rr = sigmoid(gx[:, hidden:2 * hidden] + gh[:, hidden:2 * hidden] + rb[hidden:2 * hidden])
                    if before:
                        hh = np.tanh(gx[:, 2 * hidden:] + rr * (gh[:, 2 * hidden:] + rb[2 * hidden:]))
                    else:
                        hh = np.tanh(gx[:, 2 * hidden:] + (rr * h) @ r[2 * hidden:].T + rb[2 * hidden:])
                    h = (1.0 - z) * hh + z * h
                    ys.append(h)
                out = [np.stack(ys)[:, None], h[None]]
        else:
            unsupported("an operator this check does not evaluate")
        for name, value in zip(node.output, out):
            if name:
                values[name] = value
    return {o.name: values[o.name] for o in model.graph.output}


# ---- TorchScript -> ONNX -------------------------------------------------------------------------

def first_line(e):
    text = str(e).strip()
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(e).__name__


def torch_to_onnx(args):
    policy = args.policy
    try:
        import numpy as np
        import torch
        import onnx
    except ImportError as e:
        fail(f"{policy}: converting a TorchScript policy needs Debian's python3-torch, python3-onnx and "
             f"python3-numpy (scripts/install-deps.sh), run by /usr/bin/python3: {e}")
    import warnings
    warnings.filterwarnings("ignore")  # the exporter's advice is for other models; stderr carries refusals
    torch.manual_seed(0)

    try:
        module = torch.jit.load(policy, map_location="cpu")
    except Exception as e:  # torch raises RuntimeError, ValueError, pickle errors...
        fail(f"{policy}: not a TorchScript module (torch.jit.load: {first_line(e)}); legged_gym's and rsl_rl's "
             "exporters write one with torch.jit.script(...).save(...)")
    module.eval()

    buffers = dict(module.named_buffers(recurse=False))
    children = dict(module.named_children())
    kinds = {name: getattr(child, "original_name", type(child).__name__) for name, child in children.items()}
    rnn_name = next((n for n in ("rnn", "memory") if n in children), None)

    if "hidden_state" in buffers or rnn_name is not None:
        if rnn_name is None or "actor" not in children or "hidden_state" not in buffers:
            fail(f"{policy}: a recurrent policy, but not the structure of rsl_rl's exporter (buffers "
                 f"hidden_state [and cell_state], submodules rnn or memory, and actor): its buffers are "
                 f"{sorted(buffers)}, its submodules {kinds}")
        kind = kinds[rnn_name].lower()
        if kind not in ("lstm", "gru"):
            fail(f"{policy}: submodule '{rnn_name}' is a {kinds[rnn_name]}; praxis re-exports an LSTM or a GRU")
        if kind == "lstm" and "cell_state" not in buffers:
            fail(f"{policy}: an LSTM policy without the cell_state buffer rsl_rl's exporter keeps")
        extra = sorted(set(children) - {rnn_name, "actor", "normalizer"})
        if extra:
            fail(f"{policy}: submodules {extra} besides {rnn_name}, actor and normalizer: the re-export would "
                 "leave them out")
    else:
        kind = "mlp"
        for name, m in module.named_modules():
            if getattr(m, "original_name", "") in ("LSTM", "GRU", "RNN"):
                fail(f"{policy}: submodule '{name}' is a {m.original_name} but the module keeps no hidden_state "
                     "buffer: not a structure praxis re-exports (rsl_rl's exporter's: hidden_state, rnn or "
                     "memory, actor)")

    obs_source = args.obs_source or "the config"
    obs = torch.zeros(1, args.obs)
    recurrent = []
    if kind == "mlp":
        try:
            with torch.no_grad():
                probe = module(obs)
        except Exception as e:
            fail(f"{policy}: the module does not take {args.obs} observation values ({obs_source}): "
                 f"{first_line(e)}")
        export_module, export_args = module, (obs,)
        input_names, output_names = ["obs"], ["actions"]
    else:
        scripted = children[rnn_name]
        for attr, want in (("bidirectional", False), ("batch_first", False)):
            if getattr(scripted, attr, want) != want:
                fail(f"{policy}: its {kind.upper()} has {attr} = {getattr(scripted, attr)}; rsl_rl's is "
                     f"{want}, and praxis runs only that")
        if getattr(scripted, "proj_size", 0):
            fail(f"{policy}: its LSTM has proj_size {scripted.proj_size}; praxis runs LSTMs without projection")
        if scripted.input_size != args.obs:
            fail(f"{policy}: its {kind.upper()} takes {scripted.input_size} observation values, "
                 f"{obs_source} says {args.obs}")
        layers, hidden = scripted.num_layers, scripted.hidden_size
        cls = torch.nn.LSTM if kind == "lstm" else torch.nn.GRU
        rnn = cls(scripted.input_size, hidden, layers, bias=scripted.bias)
        try:
            rnn.load_state_dict({n: p.detach().clone() for n, p in scripted.named_parameters()})
        except RuntimeError as e:
            fail(f"{policy}: the {kind.upper()}'s weights do not fit torch.nn.{cls.__name__}: {first_line(e)}")
        normalizer = children.get("normalizer", torch.nn.Identity())
        wrapper = (LstmPolicy if kind == "lstm" else GruPolicy)(normalizer, rnn, children["actor"])
        try:
            export_module = torch.jit.script(wrapper)
        except Exception as e:
            fail(f"{policy}: its normalizer or actor cannot be re-exported: {first_line(e)}")
        h = torch.zeros(layers, 1, hidden)
        if kind == "lstm":
            export_args = (obs, h, torch.zeros(layers, 1, hidden))
            input_names, output_names = ["obs", "h_in", "c_in"], ["actions", "h_out", "c_out"]
            recurrent = [{"input": "h_in", "output": "h_out"}, {"input": "c_in", "output": "c_out"}]
        else:
            export_args = (obs, h)
            input_names, output_names = ["obs", "h_in"], ["actions", "h_out"]
            recurrent = [{"input": "h_in", "output": "h_out"}]
        with torch.no_grad():
            probe = export_module(*export_args)[0]

    if tuple(probe.shape) != (1, args.actions):
        fail(f"{policy}: the module gives actions of shape {list(probe.shape)}, expected [1, {args.actions}] "
             f"(num_actions = {args.actions})")

    try:
        torch.onnx.export(export_module, export_args, args.out, input_names=input_names, output_names=output_names,
                          opset_version=17, do_constant_folding=True)
    except Exception as e:
        fail(f"{policy}: torch.onnx.export failed: {first_line(e)}")
    model = onnx.load(args.out)
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:
        fail(f"{policy}: the exported ONNX does not pass onnx.checker: {first_line(e)}")

    # The check: the ONNX graph against the TorchScript module over several steps, state carried.
    for name, b in buffers.items():
        if name in ("hidden_state", "cell_state"):
            b.zero_()
    rng = np.random.default_rng(26)
    steps = 6
    state = {n: np.zeros(a.shape, dtype=np.float32) for n, a in zip(input_names[1:], export_args[1:])}
    samples, worst = [], 0.0
    for step in range(steps):
        x = rng.standard_normal((1, args.obs)).astype(np.float32)
        with torch.no_grad():
            expected = {"actions": module(torch.from_numpy(x)).numpy()}
        if kind != "mlp":
            expected["h_out"] = buffers["hidden_state"].detach().numpy().copy()
            if kind == "lstm":
                expected["c_out"] = buffers["cell_state"].detach().numpy().copy()
        try:
            got = evaluate(model, {"obs": x, **state})
        except NotImplementedError as e:
            fail(f"{policy}: the exported ONNX cannot be checked against the module: {e}")
        for name, want in expected.items():
            scale = max(1.0, float(np.max(np.abs(want))))
            diff = float(np.max(np.abs(got[name] - want))) / scale
            worst = max(worst, diff)
            if not diff <= 1e-4:
                fail(f"{policy}: the exported ONNX disagrees with the TorchScript module at step {step + 1} of "
                     f"{steps} (output '{name}'): largest difference {diff:.3g} of the output's scale (allowed "
                     "1e-4); nothing was written")
        for pair in recurrent:
            state[pair["input"]] = got[pair["output"]].astype(np.float32)
        samples.append({"inputs": {"obs": [float(v) for v in x.ravel()]},
                        "outputs": {"actions": [float(v) for v in expected["actions"].ravel()]}})

    ops = []
    for node in model.graph.node:
        if node.op_type not in ops:
            ops.append(node.op_type)
    report = {"kind": kind, "inputs": input_names, "outputs": output_names, "recurrent": recurrent,
              "steps": steps, "max_difference": worst, "operators": ops, "samples": samples}
    with open(args.report, "w", encoding="utf-8") as f:
        json.dump(report, f)


def onnx_samples(args):
    """Random inputs for a published ONNX model and its outputs by the operator semantics above (numpy),
    over several runs with the recurrent state carried, for praxis' own network to be compared on."""
    try:
        import numpy as np
        import onnx
    except ImportError as e:
        fail(f"{args.model}: evaluating ONNX needs Debian's python3-onnx and python3-numpy: {e}")
    try:
        model = onnx.load(args.model)
    except Exception as e:
        fail(f"{args.model}: not an ONNX model ({first_line(e)})")
    initializers = {i.name for i in model.graph.initializer}
    carry = dict(pair.split(":", 1) for pair in args.carry)  # output -> input
    rng = np.random.default_rng(26)
    state, samples = {}, []
    report = {"samples": samples}
    for _ in range(args.steps):
        feeds = {}
        for graph_input in model.graph.input:
            if graph_input.name in initializers:
                continue
            shape = [d.dim_value if d.dim_value > 0 else 1 for d in graph_input.type.tensor_type.shape.dim]
            if graph_input.name in state:
                feeds[graph_input.name] = state[graph_input.name]
            elif graph_input.name in carry.values():
                feeds[graph_input.name] = np.zeros(shape, dtype=np.float32)
            else:
                feeds[graph_input.name] = rng.standard_normal(shape).astype(np.float32)
        try:
            outputs = evaluate(model, feeds)
        except (NotImplementedError, KeyError, ValueError) as e:
            report = {"samples": [], "not_evaluated": str(e)}
            break
        samples.append({"inputs": {n: [float(v) for v in np.ravel(a)] for n, a in feeds.items() if n not in carry.values()},
                        "outputs": {n: [float(v) for v in np.ravel(a)] for n, a in outputs.items() if n not in carry}})
        for out_name, in_name in carry.items():
            state[in_name] = outputs[out_name].astype(np.float32)
    with open(args.report, "w", encoding="utf-8") as f:
        json.dump(report, f)


def define_wrappers():
    """The re-exported recurrent policies: normalizer -> rnn (state in, state out) -> actor."""
    import torch
    from typing import Tuple

    class LstmPolicy(torch.nn.Module):
        def __init__(self, normalizer, rnn, actor):
            super().__init__()
            self.normalizer = normalizer
            self.rnn = rnn
            self.actor = actor

        def forward(self, obs: torch.Tensor, h_in: torch.Tensor,
                    c_in: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
            y, (h, c) = self.rnn(self.normalizer(obs).unsqueeze(0), (h_in, c_in))
            return self.actor(y.squeeze(0)), h, c

    class GruPolicy(torch.nn.Module):
        def __init__(self, normalizer, rnn, actor):
            super().__init__()
            self.normalizer = normalizer
            self.rnn = rnn
            self.actor = actor

        def forward(self, obs: torch.Tensor, h_in: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
            y, h = self.rnn(self.normalizer(obs).unsqueeze(0), h_in)
            return self.actor(y.squeeze(0)), h

    return LstmPolicy, GruPolicy


LstmPolicy = GruPolicy = None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    y = sub.add_parser("yaml", help="a YAML file as JSON on stdout")
    y.add_argument("file")
    t = sub.add_parser("torch", help="a TorchScript policy to ONNX, checked")
    t.add_argument("--policy", required=True)
    t.add_argument("--obs", type=int, required=True)
    t.add_argument("--actions", type=int, required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--report", required=True)
    t.add_argument("--obs-source", default="")
    o = sub.add_parser("onnx-samples", help="inputs and outputs of an ONNX model, evaluated here")
    o.add_argument("--model", required=True)
    o.add_argument("--report", required=True)
    o.add_argument("--steps", type=int, default=6)
    o.add_argument("--carry", action="append", default=[], help="output:input, a recurrent pair")
    args = parser.parse_args()
    if args.command == "yaml":
        yaml_to_json(args.file)
    elif args.command == "onnx-samples":
        onnx_samples(args)
    else:
        global LstmPolicy, GruPolicy
        try:
            LstmPolicy, GruPolicy = define_wrappers()
        except ImportError as e:
            fail(f"{args.policy}: converting a TorchScript policy needs Debian's python3-torch "
                 f"(scripts/install-deps.sh), run by /usr/bin/python3: {e}")
        torch_to_onnx(args)


if __name__ == "__main__":
    main()
