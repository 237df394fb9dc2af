// A praxis recording read by the tools robot teams use, none of them written here: Foxglove's MCAP
// reader (@mcap/core, its index and CRCs, zstd/lz4 from @mcap/support) finds the messages, and
// Foxglove's ROS 2 message parser and CDR reader (@foxglove/rosmsg, @foxglove/rosmsg2-serialization)
// decode every one of them from the channel's own schema.
//
//   node record_check.mjs FILE --robot g1 --joints 29 [--transitions damping>stand,stand>user_control,...]
//
// Checks: the file's summary and index agree with its messages; every schema parses and every
// message decodes; every port channel holds one message per cycle (the same count on all, cycle numbers
// consecutive, log times increasing); the robot state has the model's joint count; the transitions
// channel names the expected changes, in order. Prints "PASS: ..." or "FAIL: ..." and exits 0 or 1.

import { open } from "node:fs/promises";
import { McapIndexedReader } from "@mcap/core";
import { loadDecompressHandlers } from "@mcap/support";
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";

const args = process.argv.slice(2);
const file = args[0];
const option = (name, fallback) => {
  const k = args.indexOf(name);
  return k >= 0 ? args[k + 1] : fallback;
};
const robot = option("--robot");
const joints = Number(option("--joints", "0"));
const transitions = option("--transitions", "");
// --first-into a,b: also print "first-into: K", the cycle of the first transition into motion a or b.
const firstInto = option("--first-into", "").split(",").filter((m) => m !== "");
// --layout FILE: a Foxglove layout whose every message path must name a recorded topic and a field
// that holds a number or a bool in it (docs/observability/foxglove-layout.json).
const layoutFile = option("--layout", "");

const failures = [];
const fail = (what) => failures.push(what);

class FileReadable {
  constructor(handle, size) {
    this.handle = handle;
    this.bytes = size;
  }
  async size() {
    return BigInt(this.bytes);
  }
  async read(offset, length) {
    const buffer = new Uint8Array(Number(length));
    await this.handle.read(buffer, 0, Number(length), Number(offset));
    return buffer;
  }
}

const handle = await open(file, "r");
const { size } = await handle.stat();
const reader = await McapIndexedReader.Initialize({
  readable: new FileReadable(handle, size),
  decompressHandlers: await loadDecompressHandlers(),
});

// The run's facts.
const facts = {};
for await (const m of reader.readMetadata({ name: "praxis" })) for (const [k, v] of m.metadata) facts[k] = v;
if (robot !== undefined && facts.robot !== robot) fail(`metadata "praxis" robot is "${facts.robot}", expected "${robot}"`);

// Decoders from each channel's own schema.
const decoders = new Map();
for (const [id, channel] of reader.channelsById) {
  const schema = reader.schemasById.get(channel.schemaId);
  if (!schema || schema.encoding !== "ros2msg" || channel.messageEncoding !== "cdr") {
    fail(`${channel.topic}: schema ${schema?.encoding} / message ${channel.messageEncoding}, expected ros2msg / cdr`);
    continue;
  }
  try {
    decoders.set(id, new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true })));
  } catch (e) {
    fail(`${channel.topic}: its schema does not parse: ${e.message}`);
  }
}

const firstValue = new Map();  // topic -> its first decoded message, for --layout
const counts = new Map();
const cycles = new Map();
const lastTime = new Map();
const seenTransitions = [];
let firstIntoCycle;
let statesChecked = 0;
let decoded = 0;
for await (const message of reader.readMessages({ validateCrcs: true })) {
  const channel = reader.channelsById.get(message.channelId);
  const topic = channel.topic;
  counts.set(topic, (counts.get(topic) ?? 0) + 1);
  let value;
  try {
    value = decoders.get(message.channelId).readMessage(message.data);
    decoded++;
  } catch (e) {
    if (failures.length < 20) fail(`${topic}: message ${message.sequence} does not decode: ${e.message}`);
    continue;
  }
  if (!firstValue.has(topic)) firstValue.set(topic, value);
  if (lastTime.has(topic) && message.logTime < lastTime.get(topic)) fail(`${topic}: log time goes backwards`);
  lastTime.set(topic, message.logTime);
  if (topic.startsWith("/praxis/events/")) {
    if (topic === "/praxis/events/transitions") {
      seenTransitions.push(`${value.from}>${value.to}`);
      if (firstInto.includes(value.to) && firstIntoCycle === undefined) firstIntoCycle = value.cycle;
    }
    continue;
  }
  const previous = cycles.get(topic);
  if (previous !== undefined && message.sequence !== previous + 1) {
    if (failures.length < 20) fail(`${topic}: cycle ${message.sequence} follows ${previous}`);
  }
  cycles.set(topic, message.sequence);
  if (topic === "/praxis/robot_state") {
    if (value.q.length !== joints && statesChecked === 0) fail(`robot_state.q has ${value.q.length} joints, expected ${joints}`);
    if (value.imu.orientation.w === undefined && statesChecked === 0) fail("robot_state.imu.orientation has no w");
    statesChecked++;
  }
  if (topic === "/praxis/cycle" && BigInt(value.cycle) !== BigInt(message.sequence)) {
    if (failures.length < 20) fail(`praxis/cycle says cycle ${value.cycle} in message ${message.sequence}`);
  }
}

// One message per cycle on every port.
const portCounts = [...counts].filter(([t]) => !t.startsWith("/praxis/events/"));
const cyclesRecorded = portCounts.length > 0 ? portCounts[0][1] : 0;
for (const [topic, n] of portCounts) if (n !== cyclesRecorded) fail(`${topic}: ${n} messages, others ${cyclesRecorded}`);
if (cyclesRecorded < 100) fail(`only ${cyclesRecorded} cycles recorded`);
if (statesChecked !== cyclesRecorded) fail(`robot states decoded: ${statesChecked} of ${cyclesRecorded}`);
if (facts.ports !== undefined && portCounts.length !== Number(facts.ports)) {
  fail(`${portCounts.length} port channels with messages, the graph has ${facts.ports} ports`);
}
// The summary agrees with the messages.
const stats = reader.statistics;
if (!stats) fail("no statistics in the summary");
else {
  let total = 0n;
  for (const n of counts.values()) total += BigInt(n);
  if (stats.messageCount !== total) fail(`statistics: ${stats.messageCount} messages, read ${total}`);
  for (const [id, n] of stats.channelMessageCounts) {
    const topic = reader.channelsById.get(id).topic;
    if (BigInt(counts.get(topic) ?? 0) !== n) fail(`statistics: ${topic} ${n}, read ${counts.get(topic) ?? 0}`);
  }
}
if (transitions !== "" && seenTransitions.join(",") !== transitions) {
  fail(`transitions ${seenTransitions.join(",")}, expected ${transitions}`);
}
await handle.close();

let layoutPaths = 0;
if (layoutFile !== "") {
  const { readFile } = await import("node:fs/promises");
  const layout = JSON.parse(await readFile(layoutFile, "utf8"));
  const topics = [...reader.channelsById.values()].map((c) => c.topic).sort((a, b) => b.length - a.length);
  const resolve = (path, wantLeaf) => {
    const topic = topics.find((t) => path === t || path.startsWith(t + ".") || path.startsWith(t + "["));
    if (topic === undefined) return `names no recorded topic`;
    let value = firstValue.get(topic);
    if (value === undefined) return `topic ${topic} has no message`;
    const rest = path.slice(topic.length);
    for (const step of rest.match(/\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\]/g) ?? []) {
      value = step.startsWith(".") ? value?.[step.slice(1)] : value?.[Number(step.slice(1, -1))];
      if (value === undefined) return `no field ${step} in ${topic}`;
    }
    if (wantLeaf && !["number", "bigint", "boolean"].includes(typeof value)) return `is not a number (${typeof value})`;
    return "";
  };
  for (const [panel, config] of Object.entries(layout.configById ?? {})) {
    const paths = (config.paths ?? []).map((p) => [p.value, true]);
    if (config.topicPath) paths.push([config.topicPath, false]);
    for (const [path, leaf] of paths) {
      const why = resolve(path, leaf);
      if (why !== "") fail(`layout ${panel}: ${path} ${why}`);
      layoutPaths++;
    }
  }
  if (layoutPaths === 0) fail(`layout ${layoutFile}: no message paths`);
}

if (firstInto.length > 0) {
  if (firstIntoCycle === undefined) fail(`no transition into ${firstInto.join(" or ")}`);
  else console.log(`first-into: ${firstIntoCycle}`);
}
if (failures.length > 0) {
  console.log(`FAIL: ${file}:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `PASS: ${file}: ${decoders.size} channels, ${cyclesRecorded} cycles, ${decoded} messages decoded by Foxglove's ` +
    `CDR reader, transitions ${seenTransitions.join(",")}` +
    (layoutPaths > 0 ? `, ${layoutPaths} layout paths resolved` : ""),
);
