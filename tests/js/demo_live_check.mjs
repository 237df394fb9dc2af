// Foxglove's own protocol client (@foxglove/ws-protocol over `ws`) against a running praxis_demo
// --live: subscribes to every advertised channel, decodes every message with Foxglove's ROS 2 CDR
// reader from the channel's own schema (@foxglove/rosmsg, @foxglove/rosmsg2-serialization), and
// counts them.
//   node demo_live_check.mjs <port> <joints> [min messages per port channel, default 20]
// Checks: serverInfo offers no capability (read-only); every channel is cdr + ros2msg and its schema
// parses; every port channel (not the event channels, which carry only what happens) delivers at
// least the minimum within the time limit, its timestamps growing and never closer than the default
// 50 Hz allows; robot_state has the model's joints. Prints PASS or FAIL: <what> and exits 0 or 1.
import foxglove from "@foxglove/ws-protocol";
import WebSocket from "ws";
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";

const { FoxgloveClient } = foxglove;
const port = Number(process.argv[2]);
const joints = Number(process.argv[3]);
const minMessages = Number(process.argv[4] ?? 20);
const TIME_LIMIT_MS = 30000;
const MIN_GAP_NS = 20_000_000n; // the default 50 Hz per channel and client

const fail = (what) => {
  console.log(`FAIL: ${what}`);
  process.exit(1);
};

const ws = new WebSocket(`ws://127.0.0.1:${port}/`, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
const client = new FoxgloveClient({ ws });
const subscriptions = new Map(); // id -> { topic, reader, count, last }
let serverInfo = null;
let decoded = 0;

const timer = setTimeout(() => {
  const short = [...subscriptions.values()].filter((s) => !s.topic.startsWith("/praxis/events/") && s.count < minMessages);
  fail(`within ${TIME_LIMIT_MS} ms, ${short.length} channels had fewer than ${minMessages} messages: ` +
    short.slice(0, 6).map((s) => `${s.topic} ${s.count}`).join(", "));
}, TIME_LIMIT_MS);

const done = () => {
  const ports = [...subscriptions.values()].filter((s) => !s.topic.startsWith("/praxis/events/"));
  return ports.length > 0 && ports.every((s) => s.count >= minMessages);
};

client.on("error", (e) => fail(`client error: ${e?.message ?? e}`));
client.on("close", (e) => { if (!done()) fail(`the server closed the connection (${e.code} ${e.reason})`); });
client.on("serverInfo", (info) => {
  serverInfo = info;
  if (!Array.isArray(info.capabilities) || info.capabilities.length !== 0) {
    fail(`capabilities ${JSON.stringify(info.capabilities)}: a read-only server offers none`);
  }
});
client.on("advertise", (channels) => {
  if (serverInfo === null) fail("advertise before serverInfo");
  if (channels.length < 30) fail(`only ${channels.length} channels advertised`);
  for (const c of channels) {
    if (c.encoding !== "cdr" || c.schemaEncoding !== "ros2msg") fail(`${c.topic}: ${c.encoding} / ${c.schemaEncoding}`);
    if (!c.schemaName.startsWith("praxis_msgs/msg/")) fail(`${c.topic}: schema name ${c.schemaName}`);
    let reader;
    try {
      reader = new MessageReader(parse(c.schema, { ros2: true }));
    } catch (e) {
      fail(`${c.topic}: its schema does not parse: ${e.message}`);
    }
    subscriptions.set(client.subscribe(c.id), { topic: c.topic, reader, count: 0, last: undefined });
  }
  for (const t of ["/praxis/robot_state", "/praxis/actuated_command", "/praxis/cycle", "/praxis/events/transitions"]) {
    if (!channels.some((c) => c.topic === t)) fail(`${t} not advertised`);
  }
});
client.on("message", ({ subscriptionId, timestamp, data }) => {
  const s = subscriptions.get(subscriptionId);
  if (s === undefined) fail(`a message for subscription ${subscriptionId}, never made`);
  let value;
  try {
    value = s.reader.readMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  } catch (e) {
    fail(`${s.topic}: a message does not decode: ${e.message}`);
  }
  decoded++;
  if (s.last !== undefined) {
    if (timestamp <= s.last) fail(`${s.topic}: timestamp ${timestamp} after ${s.last}`);
    if (!s.topic.startsWith("/praxis/events/") && timestamp - s.last < MIN_GAP_NS) {
      fail(`${s.topic}: messages ${timestamp - s.last} ns apart, closer than 50 Hz allows`);
    }
  }
  if (s.topic === "/praxis/robot_state" && value.q.length !== joints) fail(`robot_state has ${value.q.length} joints`);
  s.last = timestamp;
  s.count++;
  if (done()) {
    clearTimeout(timer);
    const ports = [...subscriptions.values()].filter((x) => !x.topic.startsWith("/praxis/events/"));
    console.log(`PASS: Foxglove's client read ${subscriptions.size} channels of the running demo, ` +
      `${decoded} messages decoded, at least ${minMessages} on each of ${ports.length} port channels`);
    client.close();
    process.exit(0);
  }
});
