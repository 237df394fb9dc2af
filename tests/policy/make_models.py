#!/usr/bin/python3
"""Writes the models praxis' inference is compared on, with inputs and numpy's outputs.

    /usr/bin/python3 make_models.py <output folder>

Per model <name>: <name>.onnx (opset 17, random weights from a fixed seed, passed by
onnx.checker) and <name>.json:

    {"inputs":        {name: {"shape": [...], "data": [...]}},   every graph input, first run
     "outputs_numpy": {name: {"shape": [...], "data": [...]}},   every graph output, first run
     "steps":         [{"inputs": {...}, "outputs_numpy": {...}}, ...],   further runs, in order
     "carry":         [["h_out", "h_in"], ...]}                   output -> input after each run

A recurrent policy runs len(steps) + 1 times: the inputs a step names replace the previous ones and
the carried inputs take the outputs of the run before. Data is row-major float32, printed as the
double of each float32 value (repr round-trips, so every side reads the same float32 bits).

numpy's outputs are computed in float64 from the float32 inputs and weights and rounded once to
float32 at the end: the exact answer, against which a float32 engine's error is its own. The
operator semantics are written out here from the ONNX operator specification (opset 17).
"""

import json
import math
import pathlib
import sys

try:
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:
    raise SystemExit(f"make_models.py: {e}: needs Debian's python3-onnx and python3-numpy "
                     "(scripts/install-deps.sh), run with /usr/bin/python3") from e

OPSET = 17
IR_VERSION = 8  # onnx 1.12's for opset 17; ONNX Runtime and praxis accept it
INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min

rng = np.random.default_rng(26)


# ---- random data ---------------------------------------------------------------------------------

def normal(shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def uniform(shape, low, high):
    return rng.uniform(low, high, shape).astype(np.float32)


def weights(rows, cols):
    """A layer's weights [rows, cols] at the scale trained layers have (unit gain over cols inputs)."""
    return normal((rows, cols), 1.0 / math.sqrt(cols))


def away_from_zero(shape, low=0.5, high=2.0):
    """Magnitudes in [low, high] with random signs: divisors."""
    return (uniform(shape, low, high) * rng.choice([-1.0, 1.0], shape)).astype(np.float32)


# ---- model building ------------------------------------------------------------------------------

class Model:
    """One graph: its inputs (with values), initializers, nodes, and the numpy reference."""

    def __init__(self, name):
        self.name = name
        self.inputs = []        # ValueInfoProto
        self.input_values = {}  # name -> float32 array (the first run)
        self.outputs = []       # (name, shape in the graph, possibly symbolic)
        self.initializers = []
        self.nodes = []
        self.steps = []
        self.carry = []

    def input(self, name, value, graph_shape=None):
        value = np.asarray(value, dtype=np.float32)
        shape = list(value.shape) if graph_shape is None else graph_shape
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
        self.input_values[name] = value
        return value

    def init(self, name, value):
        value = np.asarray(value)
        self.initializers.append(numpy_helper.from_array(value, name))
        return value

    def node(self, op, inputs, outputs, name=None, **attrs):
        self.nodes.append(helper.make_node(op, inputs, outputs, name=name or f"{op}_{len(self.nodes)}",
                                           **attrs))

    def output(self, name, graph_shape):
        self.outputs.append((name, graph_shape))

    def write(self, folder, reference, steps=None):
        """reference(inputs dict) -> {output name: float64 array}. steps: further input dicts."""
        graph = helper.make_graph(
            self.nodes, self.name, self.inputs,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in self.outputs],
            initializer=self.initializers)
        model = helper.make_model(graph, producer_name="praxis make_models.py",
                                  opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = IR_VERSION
        onnx.checker.check_model(model, full_check=True)
        onnx.save(model, str(folder / f"{self.name}.onnx"))

        names = [n for n, _ in self.outputs]
        values = dict(self.input_values)
        first = reference(values)
        check_outputs(self.name, names, first)
        record = {"inputs": {k: tensor_json(v) for k, v in self.input_values.items()},
                  "outputs_numpy": {k: tensor_json(first[k]) for k in names},
                  "steps": [], "carry": [list(p) for p in self.carry]}
        previous = first
        for step_inputs in steps or []:
            for out, inp in self.carry:
                values[inp] = previous[out].astype(np.float32)
            values.update(step_inputs)
            outs = reference(values)
            check_outputs(self.name, names, outs)
            record["steps"].append({"inputs": {k: tensor_json(v) for k, v in step_inputs.items()},
                                    "outputs_numpy": {k: tensor_json(outs[k]) for k in names}})
            previous = outs
        with open(folder / f"{self.name}.json", "w", encoding="utf-8") as f:
            json.dump(record, f, separators=(",", ":"))
            f.write("\n")


def check_outputs(model, names, outs):
    for n in names:
        if n not in outs:
            raise SystemExit(f"make_models.py: {model}: the reference computes no output '{n}'")
        if not np.all(np.isfinite(outs[n])):
            raise SystemExit(f"make_models.py: {model}: output '{n}' is not finite")


def tensor_json(value):
    value = np.asarray(value).astype(np.float32)
    # float(np.float32) is the exact double of the float32; its repr reads back to the same bits.
    return {"shape": list(value.shape), "data": [float(v) for v in value.reshape(-1)]}


def f64(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


# ---- numpy semantics (float64) -------------------------------------------------------------------

def gemm(a, b, c=None, alpha=1.0, beta=1.0, trans_a=0, trans_b=0):
    a, b = f64(a, b)
    y = alpha * ((a.T if trans_a else a) @ (b.T if trans_b else b))
    return y if c is None else y + beta * np.asarray(c, dtype=np.float64)


def elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def selu(x, alpha=1.67326319217681884765625, gamma=1.05070102214813232421875):
    return gamma * np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def slice_indices(dim, start, end, step):
    """ONNX Slice on one axis of size dim: the indices taken, in order."""
    if start < 0:
        start += dim
    if end < 0:
        end += dim
    if step > 0:
        start = min(max(start, 0), dim)
        end = min(max(end, 0), dim)
    else:
        start = min(max(start, 0), dim - 1)
        end = min(max(end, -1), dim - 1)
    return list(range(start, end, step))


def onnx_slice(x, starts, ends, axes=None, steps=None):
    axes = list(range(len(starts))) if axes is None else list(axes)
    steps = [1] * len(starts) if steps is None else list(steps)
    y = np.asarray(x, dtype=np.float64)
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = a + y.ndim if a < 0 else a
        y = np.take(y, slice_indices(x.shape[a], int(s), int(e), int(st)), axis=a)
    return y


def lstm(x, w, r, b=None, h0=None, c0=None, p=None):
    """ONNX LSTM, forward, default activations. x [seq, batch, in]; W [1, 4H, in], R [1, 4H, H];
    gates in the order i, o, f, c; B [1, 8H] = [Wb, Rb]; P [1, 3H] = [Pi, Po, Pf].
    Returns Y [seq, 1, batch, H], Y_h [1, batch, H], Y_c [1, batch, H]."""
    x, w, r = f64(x, w, r)
    hidden = r.shape[-1]
    batch = x.shape[1]
    w, r = w[0], r[0]
    bias = np.zeros(4 * hidden) if b is None else (np.asarray(b, np.float64)[0, :4 * hidden]
                                                   + np.asarray(b, np.float64)[0, 4 * hidden:])
    peep = np.zeros(3 * hidden) if p is None else np.asarray(p, np.float64)[0]
    p_i, p_o, p_f = peep[:hidden], peep[hidden:2 * hidden], peep[2 * hidden:]
    h = np.zeros((batch, hidden)) if h0 is None else np.asarray(h0, np.float64)[0]
    c = np.zeros((batch, hidden)) if c0 is None else np.asarray(c0, np.float64)[0]
    ys = []
    for t in range(x.shape[0]):
        g = x[t] @ w.T + h @ r.T + bias
        gi, go, gf, gc = (g[:, k * hidden:(k + 1) * hidden] for k in range(4))
        i = sigmoid(gi + p_i * c)
        f = sigmoid(gf + p_f * c)
        cand = np.tanh(gc)
        c = f * c + i * cand
        o = sigmoid(go + p_o * c)
        h = o * np.tanh(c)
        ys.append(h)
    return np.stack(ys)[:, None], h[None], c[None]


def gru(x, w, r, b=None, h0=None, linear_before_reset=0):
    """ONNX GRU, forward, default activations. x [seq, batch, in]; W [1, 3H, in], R [1, 3H, H];
    gates in the order z, r, h; B [1, 6H] = [Wb, Rb]. Returns Y [seq, 1, batch, H], Y_h [1, batch, H]."""
    x, w, r = f64(x, w, r)
    hidden = r.shape[-1]
    batch = x.shape[1]
    w, r = w[0], r[0]
    bias = np.zeros(6 * hidden) if b is None else np.asarray(b, np.float64)[0]
    wb, rb = bias[:3 * hidden], bias[3 * hidden:]
    gate = lambda k: slice(k * hidden, (k + 1) * hidden)  # noqa: E731
    h = np.zeros((batch, hidden)) if h0 is None else np.asarray(h0, np.float64)[0]
    ys = []
    for t in range(x.shape[0]):
        gx = x[t] @ w.T + wb
        z = sigmoid(gx[:, gate(0)] + h @ r[gate(0)].T + rb[gate(0)])
        reset = sigmoid(gx[:, gate(1)] + h @ r[gate(1)].T + rb[gate(1)])
        if linear_before_reset:
            cand = np.tanh(gx[:, gate(2)] + reset * (h @ r[gate(2)].T + rb[gate(2)]))
        else:
            cand = np.tanh(gx[:, gate(2)] + (reset * h) @ r[gate(2)].T + rb[gate(2)])
        h = (1 - z) * cand + z * h
        ys.append(h)
    return np.stack(ys)[:, None], h[None]


# ---- the models ----------------------------------------------------------------------------------

def single_op(folder, name, op, inputs, initializers, out_shape, reference, **attrs):
    """One node: `inputs` are (name, value) graph inputs, `initializers` (name, value) constants;
    '' in the node's input list (given as ('', None)) marks an omitted optional input."""
    m = Model(name)
    node_inputs = []
    for n, v in inputs:
        if n:
            m.input(n, v)
        node_inputs.append(n)
    for n, v in initializers:
        m.init(n, v)
        node_inputs.append(n)
    # Input order in the node: graph inputs first unless `order` is given.
    order = attrs.pop("order", None)
    m.node(op, order or node_inputs, ["y"], **attrs)
    m.output("y", out_shape)
    m.write(folder, reference)


def gemm_models(folder):
    a = normal((1, 48))
    b = weights(12, 48)
    c = normal((12,), 0.1)
    single_op(folder, "gemm_transb_bias", "Gemm", [("a", a)], [("b", b), ("c", c)], [1, 12],
              lambda v: {"y": gemm(v["a"], b, c, trans_b=1)}, transB=1)

    a = normal((5, 3))
    b = normal((5, 4))
    c = normal((3, 1))
    single_op(folder, "gemm_transa_alpha_beta_ccolumn", "Gemm", [("a", a)], [("b", b), ("c", c)],
              [3, 4], lambda v: {"y": gemm(v["a"], b, c, 0.5, 2.0, trans_a=1)},
              alpha=0.5, beta=2.0, transA=1)

    a = normal((4, 6))
    b = normal((3, 4))
    c = np.array(0.75, dtype=np.float32)
    single_op(folder, "gemm_transab_cscalar", "Gemm", [("a", a)], [("b", b), ("c", c)], [6, 3],
              lambda v: {"y": gemm(v["a"], b, c, -1.5, 0.25, trans_a=1, trans_b=1)},
              alpha=-1.5, beta=0.25, transA=1, transB=1)

    a = normal((2, 7))
    b = normal((7, 5))
    c = normal((2, 5))
    single_op(folder, "gemm_cfull", "Gemm", [("a", a)], [("b", b), ("c", c)], [2, 5],
              lambda v: {"y": gemm(v["a"], b, c, 1.0, -0.5)}, beta=-0.5)

    a = normal((3, 8))
    b = normal((8, 4))
    single_op(folder, "gemm_no_c_runtime_b", "Gemm", [("a", a), ("b", b)], [], [3, 4],
              lambda v: {"y": gemm(v["a"], v["b"], alpha=2.0)}, alpha=2.0)

    a = normal((1, 10))
    b = weights(6, 10)
    c = normal((1, 6))
    single_op(folder, "gemm_crow", "Gemm", [("a", a)], [("b", b), ("c", c)], [1, 6],
              lambda v: {"y": gemm(v["a"], b, c, trans_b=1)}, transB=1)


def matmul_models(folder):
    b = normal((7, 5))
    single_op(folder, "matmul_2d", "MatMul", [("a", normal((3, 7)))], [("b", b)], [3, 5],
              lambda v: {"y": f64(v["a"])[0] @ b})
    single_op(folder, "matmul_3d_left", "MatMul", [("a", normal((2, 3, 7)))], [("b", b)],
              [2, 3, 5], lambda v: {"y": f64(v["a"])[0] @ b})
    b4 = normal((4, 6))
    single_op(folder, "matmul_4d_left", "MatMul", [("a", normal((2, 1, 3, 4)))], [("b", b4)],
              [2, 1, 3, 6], lambda v: {"y": f64(v["a"])[0] @ b4})
    single_op(folder, "matmul_runtime_both", "MatMul",
              [("a", normal((4, 6))), ("b", normal((6, 3)))], [], [4, 3],
              lambda v: {"y": f64(v["a"])[0] @ f64(v["b"])[0]})


def binary_models(folder):
    ops = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}
    cases = [
        # (suffix, a shape, b shape, b is a constant)
        ("same", (2, 3), (2, 3), False),
        ("bias", (1, 12), (12,), True),
        ("3d_col", (2, 3, 4), (3, 1), False),
        ("both_ways", (2, 1, 4), (3, 1), False),
        ("left_small", (4,), (2, 3, 1), False),
        ("scalar", (2, 5), (), True),
        ("mid", (2, 3, 4), (1, 3, 1), True),
    ]
    for op, fn in ops.items():
        for suffix, sa, sb, const in cases:
            a = normal(sa)
            b = away_from_zero(sb) if op == "Div" else normal(sb)
            out_shape = list(np.broadcast_shapes(sa, sb))
            name = f"{op.lower()}_{suffix}"
            if const:
                single_op(folder, name, op, [("a", a)], [("b", b)], out_shape,
                          lambda v, fn=fn, b=b: {"y": fn(*f64(v["a"], b))})
            else:
                single_op(folder, name, op, [("a", a), ("b", b)], [], out_shape,
                          lambda v, fn=fn: {"y": fn(*f64(v["a"], v["b"]))})
    # The constant on the left: Sub and Div are not symmetric.
    a = normal((3,))
    b = away_from_zero((2, 3))
    single_op(folder, "div_const_left", "Div", [("x", b)], [("k", a)], [2, 3],
              lambda v: {"y": f64(a)[0] / f64(v["x"])[0]}, order=["k", "x"])
    single_op(folder, "sub_const_left", "Sub", [("x", b)], [("k", a)], [2, 3],
              lambda v: {"y": f64(a)[0] - f64(v["x"])[0]}, order=["k", "x"])


def unary_models(folder):
    # Both signs, saturation (|x| up to 9), values near 0 and exact 0.
    x = np.concatenate([uniform((40,), -9.0, 9.0), normal((20,), 0.01), np.zeros(2, np.float32),
                        np.array([1e-6, -1e-6], np.float32)]).reshape(4, 16)
    cases = [
        ("neg", "Neg", {}, lambda x: -x),
        ("relu", "Relu", {}, lambda x: np.maximum(x, 0)),
        ("elu", "Elu", {}, elu),
        ("elu_alpha", "Elu", {"alpha": 0.7}, lambda x: elu(x, np.float64(np.float32(0.7)))),
        ("leakyrelu", "LeakyRelu", {}, lambda x: np.where(x >= 0, x, np.float64(np.float32(0.01)) * x)),
        ("leakyrelu_alpha", "LeakyRelu", {"alpha": 0.2},
         lambda x: np.where(x >= 0, x, np.float64(np.float32(0.2)) * x)),
        ("selu", "Selu", {}, selu),
        ("selu_alpha_gamma", "Selu", {"alpha": 1.5, "gamma": 1.1},
         lambda x: selu(x, np.float64(np.float32(1.5)), np.float64(np.float32(1.1)))),
        ("tanh", "Tanh", {}, np.tanh),
        ("sigmoid", "Sigmoid", {}, sigmoid),
        ("softsign", "Softsign", {}, lambda x: x / (1 + np.abs(x))),
        ("identity", "Identity", {}, lambda x: x),
    ]
    for name, op, attrs, fn in cases:
        single_op(folder, name, op, [("x", x)], [], [4, 16],
                  lambda v, fn=fn: {"y": fn(f64(v["x"])[0])}, **attrs)


def clip_models(folder):
    x = uniform((3, 8), -3.0, 3.0)
    lo = np.array(-0.5, np.float32)
    hi = np.array(0.8, np.float32)
    single_op(folder, "clip_min_max", "Clip", [("x", x)], [("lo", lo), ("hi", hi)], [3, 8],
              lambda v: {"y": np.clip(f64(v["x"])[0], lo, hi)})
    single_op(folder, "clip_min_only", "Clip", [("x", x)], [("lo", lo)], [3, 8],
              lambda v: {"y": np.maximum(f64(v["x"])[0], lo)})
    single_op(folder, "clip_max_only", "Clip", [("x", x)], [("hi", hi)], [3, 8],
              lambda v: {"y": np.minimum(f64(v["x"])[0], hi)}, order=["x", "", "hi"])
    single_op(folder, "clip_none", "Clip", [("x", x)], [], [3, 8],
              lambda v: {"y": f64(v["x"])[0]})
    # As torch exports torch.clamp: the bounds from Constant nodes.
    m = Model("clip_constant_bounds")
    m.input("x", x)
    m.node("Constant", [], ["lo"], value=numpy_helper.from_array(np.array(-1.25, np.float32)))
    m.node("Constant", [], ["hi"], value=numpy_helper.from_array(np.array(1.5, np.float32)))
    m.node("Clip", ["x", "lo", "hi"], ["y"])
    m.output("y", [3, 8])
    m.write(folder, lambda v: {"y": np.clip(f64(v["x"])[0], -1.25, 1.5)})


def shape_models(folder):
    i64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731

    # Concat: negative axis, three inputs of different widths; axis 0 with a constant part.
    a, b, c = normal((2, 3, 1)), normal((2, 3, 4)), normal((2, 3, 2))
    single_op(folder, "concat_neg_axis", "Concat", [("a", a), ("b", b), ("c", c)], [], [2, 3, 7],
              lambda v: {"y": np.concatenate(f64(v["a"], v["b"], v["c"]), axis=-1)}, axis=-1)
    k = normal((3, 4))
    single_op(folder, "concat_axis0_const", "Concat", [("a", normal((1, 4)))], [("k", k)], [4, 4],
              lambda v: {"y": np.concatenate(f64(k, v["a"]), axis=0)}, axis=0, order=["k", "a"])
    p, q = normal((2, 1, 3)), normal((2, 4, 3))
    single_op(folder, "concat_axis1", "Concat", [("p", p), ("q", q)], [], [2, 5, 3],
              lambda v: {"y": np.concatenate(f64(v["p"], v["q"]), axis=1)}, axis=1)

    # Slice.
    x = normal((4, 10))
    single_op(folder, "slice_basic", "Slice", [("x", x)],
              [("starts", i64(1, 2)), ("ends", i64(3, 8))], [2, 6],
              lambda v: {"y": onnx_slice(v["x"], [1, 2], [3, 8])})
    x3 = normal((3, 4, 10))
    starts, ends, axes, steps = i64(-2, 3), i64(-100, 0), i64(-1, 1), i64(-3, -1)
    single_op(folder, "slice_neg_steps_axes", "Slice", [("x", x3)],
              [("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)], [3, 3, 3],
              lambda v: {"y": onnx_slice(v["x"], starts, ends, axes, steps)})
    starts, ends, axes, steps = i64(0, -1000), i64(INT64_MAX, 3), i64(-1, 0), i64(2, 1)
    single_op(folder, "slice_clamped_ends", "Slice", [("x", x)],
              [("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)], [3, 5],
              lambda v: {"y": onnx_slice(v["x"], starts, ends, axes, steps)})
    starts, ends, axes, steps = i64(-1), i64(INT64_MIN), i64(1), i64(-1)
    single_op(folder, "slice_reverse", "Slice", [("x", x)],
              [("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)], [4, 10],
              lambda v: {"y": onnx_slice(v["x"], starts, ends, axes, steps)})
    # Starts and ends past the end on one axis, omitted steps.
    single_op(folder, "slice_end_past_dim", "Slice", [("x", x3)],
              [("starts", i64(1, 1)), ("ends", i64(1000, 9)), ("axes", i64(0, 2))], [2, 4, 8],
              lambda v: {"y": onnx_slice(v["x"], [1, 1], [1000, 9], [0, 2])})
    # An observation split as policies do: the first 3 and the last 12 of 48.
    obs = normal((1, 48))
    m = Model("slice_split_obs")
    m.input("obs", obs)
    for n, arr in (("s0", i64(0)), ("e0", i64(3)), ("s1", i64(-12)), ("e1", i64(INT64_MAX)),
                   ("ax", i64(-1))):
        m.init(n, arr)
    m.node("Slice", ["obs", "s0", "e0", "ax"], ["head"])
    m.node("Slice", ["obs", "s1", "e1", "ax"], ["tail"])
    m.output("head", [1, 3])
    m.output("tail", [1, 12])
    m.write(folder, lambda v: {"head": f64(v["obs"])[0][:, :3], "tail": f64(v["obs"])[0][:, -12:]})

    # Reshape: 0 keeps a dimension, -1 is inferred.
    x = normal((2, 3, 4))
    single_op(folder, "reshape_zero_minus1", "Reshape", [("x", x)], [("shape", i64(0, -1))],
              [2, 12], lambda v: {"y": f64(v["x"])[0].reshape(2, 12)})
    single_op(folder, "reshape_minus1_mid", "Reshape", [("x", x)], [("shape", i64(4, -1, 2))],
              [4, 3, 2], lambda v: {"y": f64(v["x"])[0].reshape(4, 3, 2)})
    single_op(folder, "reshape_flat", "Reshape", [("x", x)], [("shape", i64(-1))], [24],
              lambda v: {"y": f64(v["x"])[0].reshape(24)}, allowzero=0)

    # Flatten.
    for axis, shape in ((0, [1, 24]), (2, [6, 4]), (-1, [6, 4]), (1, [2, 12]), (3, [24, 1])):
        single_op(folder, f"flatten_axis{axis}".replace("-", "m"), "Flatten", [("x", x)], [], shape,
                  lambda v, shape=shape: {"y": f64(v["x"])[0].reshape(shape)}, axis=axis)

    # Squeeze / Unsqueeze (axes as an input since opset 13).
    x = normal((1, 3, 1, 4))
    single_op(folder, "squeeze_neg_axis", "Squeeze", [("x", x)], [("axes", i64(-2))], [1, 3, 4],
              lambda v: {"y": f64(v["x"])[0].reshape(1, 3, 4)})
    single_op(folder, "squeeze_all", "Squeeze", [("x", x)], [], [3, 4],
              lambda v: {"y": f64(v["x"])[0].reshape(3, 4)})
    x = normal((3, 4))
    single_op(folder, "unsqueeze_neg_axes", "Unsqueeze", [("x", x)], [("axes", i64(0, -1))],
              [1, 3, 4, 1], lambda v: {"y": f64(v["x"])[0].reshape(1, 3, 4, 1)})
    single_op(folder, "unsqueeze_mid", "Unsqueeze", [("x", x)], [("axes", i64(1))], [3, 1, 4],
              lambda v: {"y": f64(v["x"])[0].reshape(3, 1, 4)})


def constant_models(folder):
    x = normal((2, 3))
    m = Model("constant_value_tensor")
    m.input("x", x)
    k = normal((3,))
    m.node("Constant", [], ["k"], value=numpy_helper.from_array(k))
    m.node("Add", ["x", "k"], ["y"])
    m.output("y", [2, 3])
    m.write(folder, lambda v: {"y": f64(v["x"])[0] + k})

    m = Model("constant_value_float")
    m.input("x", x)
    m.node("Constant", [], ["k"], value_float=0.37)
    m.node("Mul", ["x", "k"], ["y"])
    m.output("y", [2, 3])
    m.write(folder, lambda v: {"y": f64(v["x"])[0] * np.float64(np.float32(0.37))})

    m = Model("constant_value_floats")
    m.input("x", x)
    ks = [0.5, -1.25, 3.1]
    m.node("Constant", [], ["k"], value_floats=ks)
    m.node("Sub", ["x", "k"], ["y"])
    m.output("y", [2, 3])
    m.write(folder, lambda v: {"y": f64(v["x"])[0] - np.array(ks, np.float32).astype(np.float64)})

    # int64 constants where shapes and axes go, from each of the forms.
    m = Model("constant_int64_shape_axes")
    m.input("x", x)
    m.node("Constant", [], ["shape"], value=numpy_helper.from_array(np.array([3, 2], np.int64)))
    m.node("Reshape", ["x", "shape"], ["r"])
    m.node("Constant", [], ["axes"], value_ints=[0])
    m.node("Unsqueeze", ["r", "axes"], ["u"])
    # Slice wants 1-D starts/ends/axes, so value_ints (value_int makes a scalar).
    m.node("Constant", [], ["one"], value_ints=[2])
    m.node("Constant", [], ["zero"], value_ints=[0])
    m.node("Constant", [], ["last"], value_ints=[-1])
    m.node("Slice", ["u", "zero", "one", "last"], ["y"])
    m.output("y", [1, 3, 2])
    m.write(folder, lambda v: {"y": f64(v["x"])[0].reshape(1, 3, 2)})

    # Operators on constants only (foldable at load) feeding one on the input.
    m = Model("folded_constants")
    m.input("x", normal((1, 5)))
    a, b = normal((5,)), normal((5,))
    m.init("a", a)
    m.init("b", b)
    m.node("Add", ["a", "b"], ["ab"])
    m.node("Constant", [], ["half"], value_float=0.5)
    m.node("Mul", ["ab", "half"], ["abh"])
    m.node("Tanh", ["abh"], ["t"])
    m.node("Unsqueeze", ["t", "ax0"], ["t2"])
    m.init("ax0", np.array([0], np.int64))
    m.node("Mul", ["x", "t2"], ["y"])
    m.output("y", [1, 5])
    m.write(folder, lambda v: {"y": f64(v["x"])[0] * np.tanh((f64(a)[0] + f64(b)[0]) * 0.5)[None]})


def lstm_models(folder):
    hidden, inp, seq = 8, 6, 5
    w = normal((1, 4 * hidden, inp), 0.5)
    r = normal((1, 4 * hidden, hidden), 0.5)
    b = normal((1, 8 * hidden), 0.3)
    x = normal((seq, 1, inp))
    h0 = normal((1, 1, hidden), 0.5)
    c0 = normal((1, 1, hidden), 0.5)
    m = Model("lstm_seq_all_outputs")
    m.input("x", x)
    m.input("h0", h0)
    m.input("c0", c0)
    m.init("W", w)
    m.init("R", r)
    m.init("B", b)
    m.node("LSTM", ["x", "W", "R", "B", "", "h0", "c0"], ["Y", "Y_h", "Y_c"], hidden_size=hidden)
    m.output("Y", [seq, 1, 1, hidden])
    m.output("Y_h", [1, 1, hidden])
    m.output("Y_c", [1, 1, hidden])
    m.write(folder, lambda v: dict(zip(("Y", "Y_h", "Y_c"),
                                       lstm(v["x"], w, r, b, v["h0"], v["c0"]))))

    # Peepholes, no bias, no initial state, batch 2, only Y_c and Y (Y_h omitted).
    p = normal((1, 3 * hidden), 0.5)
    x = normal((seq, 2, inp))
    m = Model("lstm_peephole_batch2")
    m.input("x", x)
    m.init("W", w)
    m.init("R", r)
    m.init("P", p)
    m.node("LSTM", ["x", "W", "R", "", "", "", "", "P"], ["Y", "", "Y_c"], hidden_size=hidden,
           direction="forward")
    m.output("Y", [seq, 1, 2, hidden])
    m.output("Y_c", [1, 2, hidden])
    m.write(folder, lambda v: (lambda y, yh, yc: {"Y": y, "Y_c": yc})(*lstm(v["x"], w, r, p=p)))


def gru_models(folder):
    hidden, inp, seq = 8, 6, 5
    w = normal((1, 3 * hidden, inp), 0.5)
    r = normal((1, 3 * hidden, hidden), 0.5)
    b = normal((1, 6 * hidden), 0.3)
    # Both ways of applying the reset gate, with bias and initial state, every step's output.
    for lbr in (0, 1):
        for batch in (1, 2):
            x = normal((seq, batch, inp))
            h0 = normal((1, batch, hidden), 0.5)
            m = Model(f"gru_lbr{lbr}_batch{batch}_all_outputs")
            m.input("x", x)
            m.input("h0", h0)
            m.init("W", w)
            m.init("R", r)
            m.init("B", b)
            m.node("GRU", ["x", "W", "R", "B", "", "h0"], ["Y", "Y_h"], hidden_size=hidden,
                   linear_before_reset=lbr)
            m.output("Y", [seq, 1, batch, hidden])
            m.output("Y_h", [1, batch, hidden])
            m.write(folder, lambda v, lbr=lbr: dict(zip(("Y", "Y_h"),
                                                        gru(v["x"], w, r, b, v["h0"], lbr))))
        # No bias, no initial state; one of the two outputs left out.
        x = normal((seq, 2, inp))
        m = Model(f"gru_lbr{lbr}_no_bias_no_h0")
        m.input("x", x)
        m.init("W", w)
        m.init("R", r)
        outputs = ["", "Y_h"] if lbr == 0 else ["Y"]
        m.node("GRU", ["x", "W", "R"], outputs, hidden_size=hidden, linear_before_reset=lbr,
               direction="forward", activations=["Sigmoid", "Tanh"])
        name = outputs[-1]
        m.output(name, [1, 2, hidden] if name == "Y_h" else [seq, 1, 2, hidden])
        m.write(folder, lambda v, lbr=lbr, name=name: {
            name: dict(zip(("Y", "Y_h"), gru(v["x"], w, r, linear_before_reset=lbr)))[name]})
    # sequence_lens given, as every sequence's full length (the one value praxis runs).
    x = normal((seq, 2, inp))
    m = Model("gru_full_sequence_lens")
    m.input("x", x)
    m.init("W", w)
    m.init("R", r)
    m.init("B", b)
    m.init("lens", np.full((2,), seq, np.int32))
    m.node("GRU", ["x", "W", "R", "B", "lens"], ["Y", "Y_h"], hidden_size=hidden, linear_before_reset=1)
    m.output("Y", [seq, 1, 2, hidden])
    m.output("Y_h", [1, 2, hidden])
    m.write(folder, lambda v: dict(zip(("Y", "Y_h"), gru(v["x"], w, r, b, linear_before_reset=1))))


class Actor:
    """An actor as exporters write it: Gemm(transB=1) with bias per layer, Elu between."""

    def __init__(self, m, prev, sizes, act_name):
        self.layers = []
        for k in range(len(sizes) - 1):
            w = m.init(f"actor.{2 * k}.weight", weights(sizes[k + 1], sizes[k]))
            b = m.init(f"actor.{2 * k}.bias", normal((sizes[k + 1],), 0.1))
            self.layers.append((w, b))
            out = act_name if k == len(sizes) - 2 else f"/actor/{2 * k}/Gemm_output_0"
            m.node("Gemm", [prev, f"actor.{2 * k}.weight", f"actor.{2 * k}.bias"], [out],
                   name=f"/actor/{2 * k}/Gemm", alpha=1.0, beta=1.0, transB=1)
            prev = out
            if k < len(sizes) - 2:
                act = f"/actor/{2 * k + 1}/Elu_output_0"
                m.node("Elu", [prev], [act], name=f"/actor/{2 * k + 1}/Elu", alpha=1.0)
                prev = act

    def __call__(self, x):
        y = f64(x)[0]
        for k, (w, b) in enumerate(self.layers):
            y = gemm(y, w, b, trans_b=1)
            if k < len(self.layers) - 1:
                y = elu(y)
        return y


def mlp(folder, name, sizes, obs_name="obs", act_name="actions"):
    """An actor alone, with a symbolic batch."""
    m = Model(name)
    m.input(obs_name, normal((1, sizes[0])), graph_shape=["batch", sizes[0]])
    actor = Actor(m, obs_name, sizes, act_name)
    m.output(act_name, ["batch", sizes[-1]])
    m.write(folder, lambda v: {act_name: actor(v[obs_name])})


def lstm_policy(folder, obs_size=48, hidden=64, actions=12, steps=20):
    """rsl_rl's recurrent export: obs, h_in, c_in -> actions, h_out, c_out, one LSTM step per run."""
    m = Model("lstm_policy")
    m.input("obs", normal((1, obs_size)))
    m.input("h_in", np.zeros((1, 1, hidden), np.float32))
    m.input("c_in", np.zeros((1, 1, hidden), np.float32))
    w = m.init("onnx::LSTM_W", normal((1, 4 * hidden, obs_size), 1.0 / math.sqrt(obs_size)))
    r = m.init("onnx::LSTM_R", normal((1, 4 * hidden, hidden), 1.0 / math.sqrt(hidden)))
    b = m.init("onnx::LSTM_B", normal((1, 8 * hidden), 0.1))
    wa = m.init("actor.weight", weights(actions, hidden))
    ba = m.init("actor.bias", normal((actions,), 0.1))
    m.init("axes0", np.array([0], np.int64))
    m.init("axes1", np.array([1], np.int64))
    m.node("Unsqueeze", ["obs", "axes0"], ["/Unsqueeze_output_0"], name="/Unsqueeze")
    m.node("LSTM", ["/Unsqueeze_output_0", "onnx::LSTM_W", "onnx::LSTM_R", "onnx::LSTM_B", "",
                    "h_in", "c_in"], ["/rnn/LSTM_output_0", "h_out", "c_out"], name="/rnn/LSTM",
           hidden_size=hidden)
    m.node("Squeeze", ["/rnn/LSTM_output_0", "axes1"], ["/rnn/Squeeze_output_0"], name="/rnn/Squeeze")
    m.node("Squeeze", ["/rnn/Squeeze_output_0", "axes0"], ["/Squeeze_output_0"], name="/Squeeze")
    m.node("Gemm", ["/Squeeze_output_0", "actor.weight", "actor.bias"], ["actions"],
           name="/actor/Gemm", alpha=1.0, beta=1.0, transB=1)
    m.output("actions", [1, actions])
    m.output("h_out", [1, 1, hidden])
    m.output("c_out", [1, 1, hidden])
    m.carry = [("h_out", "h_in"), ("c_out", "c_in")]

    def reference(v):
        _, yh, yc = lstm(v["obs"][None], w, r, b, v["h_in"], v["c_in"])
        return {"actions": gemm(yh[0], wa, ba, trans_b=1), "h_out": yh, "c_out": yc}

    m.write(folder, reference, steps=[{"obs": normal((1, obs_size))} for _ in range(steps - 1)])


def gru_policy(folder, obs_size=48, hidden=64, actor=(128, 128), actions=12, steps=20):
    """rsl_rl's recurrent export with a GRU: obs, h_in -> actions, h_out, one GRU step per run (as
    PyTorch exports it: linear_before_reset 1), then an MLP actor with Elu between its layers."""
    m = Model("gru_policy")
    m.input("obs", normal((1, obs_size)))
    m.input("h_in", np.zeros((1, 1, hidden), np.float32))
    w = m.init("onnx::GRU_W", normal((1, 3 * hidden, obs_size), 1.0 / math.sqrt(obs_size)))
    r = m.init("onnx::GRU_R", normal((1, 3 * hidden, hidden), 1.0 / math.sqrt(hidden)))
    b = m.init("onnx::GRU_B", normal((1, 6 * hidden), 0.1))
    m.init("axes0", np.array([0], np.int64))
    m.init("axes1", np.array([1], np.int64))
    m.node("Unsqueeze", ["obs", "axes0"], ["/Unsqueeze_output_0"], name="/Unsqueeze")
    m.node("GRU", ["/Unsqueeze_output_0", "onnx::GRU_W", "onnx::GRU_R", "onnx::GRU_B", "", "h_in"],
           ["/rnn/GRU_output_0", "h_out"], name="/rnn/GRU", hidden_size=hidden, linear_before_reset=1)
    m.node("Squeeze", ["/rnn/GRU_output_0", "axes1"], ["/rnn/Squeeze_output_0"], name="/rnn/Squeeze")
    m.node("Squeeze", ["/rnn/Squeeze_output_0", "axes0"], ["/Squeeze_output_0"], name="/Squeeze")
    mlp_actor = Actor(m, "/Squeeze_output_0", [hidden, *actor, actions], "actions")
    m.output("actions", [1, actions])
    m.output("h_out", [1, 1, hidden])
    m.carry = [("h_out", "h_in")]

    def reference(v):
        _, yh = gru(v["obs"][None], w, r, b, v["h_in"], linear_before_reset=1)
        return {"actions": mlp_actor(yh[0]), "h_out": yh}

    m.write(folder, reference, steps=[{"obs": normal((1, obs_size))} for _ in range(steps - 1)])


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: make_models.py <output folder>")
    folder = pathlib.Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for old in list(folder.glob("*.onnx")) + list(folder.glob("*.json")):
        old.unlink()  # a model dropped from this script must not linger with stale results
    gemm_models(folder)
    matmul_models(folder)
    binary_models(folder)
    unary_models(folder)
    clip_models(folder)
    shape_models(folder)
    constant_models(folder)
    lstm_models(folder)
    mlp(folder, "mlp_48_3x256_elu", [48, 256, 256, 256, 12])
    mlp(folder, "mlp_bench_45_512_256_128_elu", [45, 512, 256, 128, 12])
    lstm_policy(folder)
    # Last, so that the models above keep the random values they had before GRU was added.
    gru_models(folder)
    gru_policy(folder)
    count = len(list(folder.glob("*.onnx")))
    print(f"make_models.py: wrote {count} models to {folder}")


if __name__ == "__main__":
    main()
