// Runs every model tests/policy/make_models.py wrote with ONNX Runtime (npm onnxruntime-node, CPU),
// the engine praxis' own inference is compared with (tests/policy/compare_main.cpp).
//   node onnx_reference.mjs <models folder>
// For each <name>.onnx + <name>.json: the first run on "inputs", then each of "steps" (its inputs
// replace the previous ones; the "carry" pairs copy an output into an input after every run).
// Writes <name>.ort.json: {"runtime": "onnxruntime-node <version>",
//                          "outputs": {name: {shape, data}}, "steps": [{"outputs": {...}}, ...]}.
// float32 results are written as the doubles they are: JSON numbers that read back to the same bits.
// Prints "PASS ..." and exits 0, or "FAIL: <model>: <why>" and exits 1.

import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

let ort;
try {
  ort = (await import("onnxruntime-node")).default;
} catch (e) {
  console.log(`FAIL: onnxruntime-node does not load (${e.message}): run scripts/install-js-test-deps.sh`);
  process.exit(1);
}

const folder = process.argv[2];
if (!folder) {
  console.log("FAIL: usage: node onnx_reference.mjs <models folder>");
  process.exit(1);
}

function tensor(entry, name) {
  const size = entry.shape.reduce((a, b) => a * b, 1);
  if (size !== entry.data.length) {
    throw new Error(`input '${name}': shape [${entry.shape}] holds ${size} values, data has ${entry.data.length}`);
  }
  return new ort.Tensor("float32", Float32Array.from(entry.data), entry.shape);
}

function record(outputs) {
  const out = {};
  for (const [name, t] of Object.entries(outputs)) {
    if (t.type !== "float32") throw new Error(`output '${name}' is ${t.type}, not float32`);
    out[name] = { shape: Array.from(t.dims, Number), data: Array.from(t.data) };
  }
  return out;
}

// One thread: the machine's cores belong to the build and the other tests.
const options = { executionProviders: ["cpu"], intraOpNumThreads: 1, interOpNumThreads: 1 };

const names = (await readdir(folder)).filter((f) => f.endsWith(".onnx")).map((f) => f.slice(0, -5)).sort();
if (names.length === 0) {
  console.log(`FAIL: no .onnx models in ${folder}`);
  process.exit(1);
}
const failures = [];
let runs = 0;
for (const name of names) {
  try {
    const spec = JSON.parse(await readFile(join(folder, `${name}.json`), "utf8"));
    const session = await ort.InferenceSession.create(join(folder, `${name}.onnx`), options);
    const feeds = {};
    for (const [input, entry] of Object.entries(spec.inputs)) feeds[input] = tensor(entry, input);
    const result = { runtime: `onnxruntime-node ${ort.env.versions.node}`, outputs: null, steps: [] };
    let outputs = await session.run(feeds);
    runs += 1;
    result.outputs = record(outputs);
    for (const step of spec.steps) {
      for (const [out, input] of spec.carry) {
        if (!(out in outputs)) throw new Error(`carried output '${out}' is not an output`);
        // A copy: the next run's input must not alias the previous run's output buffer.
        feeds[input] = new ort.Tensor("float32", Float32Array.from(outputs[out].data), outputs[out].dims);
      }
      for (const [input, entry] of Object.entries(step.inputs)) feeds[input] = tensor(entry, input);
      outputs = await session.run(feeds);
      runs += 1;
      result.steps.push({ outputs: record(outputs) });
    }
    await session.release();
    await writeFile(join(folder, `${name}.ort.json`), JSON.stringify(result) + "\n");
  } catch (e) {
    failures.push(`${name}: ${e.message ?? e}`);
  }
}
for (const f of failures) console.log(`FAIL: ${f}`);
if (failures.length > 0) process.exit(1);
console.log(`PASS onnxruntime-node ${ort.env.versions.node} ran ${names.length} models (${runs} runs) in ${folder}`);
