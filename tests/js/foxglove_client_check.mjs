// Foxglove's own protocol client (@foxglove/ws-protocol over the `ws` package) against praxis' live
// server, here tests/observe/live_sample_server:
//   node foxglove_client_check.mjs <port>
// Checks serverInfo, the advertised channels (topics, encodings, schema names and texts), subscribes
// to every channel and reads messages until each has MIN_MESSAGES, decoding their CDR by hand.
// Exits 0 and prints PASS, or prints FAIL: <what differed> and exits 1.
import foxglove from "@foxglove/ws-protocol";
import WebSocket from "ws";

const { FoxgloveClient } = foxglove;
const MIN_MESSAGES = 25;
const TIME_LIMIT_MS = 20000;
const port = Number(process.argv[2]);

const IMU = "float64[3] gyro\nfloat64[3] accel\nfloat32 temperature\n";
const expected = new Map([
  ["/praxis/imu", { schemaName: "praxis_msgs/msg/Imu", schema: IMU, rateHz: 50 }],
  [
    "/praxis/sample_state",
    {
      schemaName: "praxis_msgs/msg/SampleState",
      schema:
        "uint64 tick\nuint8 mode\nbool enabled\nint16 temperature\npraxis_msgs/Imu imu\nfloat32[2] foot_force\n" +
        "string label\nint32 error_code\n" + "=".repeat(80) + "\nMSG: praxis_msgs/Imu\n" + IMU,
      rateHz: 50,
    },
  ],
  ["/praxis/phase", { schemaName: "praxis_msgs/msg/Phase", schema: "float64 phase\nuint32 count\n", rateHz: 0 }],
]);

function fail(what) {
  console.log(`FAIL: ${what}`);
  process.exit(1);
}

// A CDR reader for the sample's layouts: little endian after the 4-byte header, each primitive
// aligned to its size from the first byte after the header.
class Cdr {
  constructor(view) {
    this.view = view;
    const header = [0, 1, 2, 3].map((i) => view.getUint8(i));
    if (header.join(",") !== "0,1,0,0") fail(`encapsulation header ${header} is not 00 01 00 00`);
    this.at = 4;
  }
  align(n) {
    this.at += (n - ((this.at - 4) % n)) % n;
  }
  f64() { this.align(8); const v = this.view.getFloat64(this.at, true); this.at += 8; return v; }
  f32() { this.align(4); const v = this.view.getFloat32(this.at, true); this.at += 4; return v; }
  u64() { this.align(8); const v = this.view.getBigUint64(this.at, true); this.at += 8; return v; }
  u32() { this.align(4); const v = this.view.getUint32(this.at, true); this.at += 4; return v; }
  i32() { this.align(4); const v = this.view.getInt32(this.at, true); this.at += 4; return v; }
  i16() { this.align(2); const v = this.view.getInt16(this.at, true); this.at += 2; return v; }
  u8() { const v = this.view.getUint8(this.at); this.at += 1; return v; }
  string() {
    const n = this.u32();
    const bytes = new Uint8Array(this.view.buffer, this.view.byteOffset + this.at, n);
    if (bytes[n - 1] !== 0) fail("a string does not end with NUL");
    this.at += n;
    return new TextDecoder().decode(bytes.subarray(0, n - 1));
  }
  end() {
    if (this.at !== this.view.byteLength) fail(`payload has ${this.view.byteLength} bytes, the schema ${this.at}`);
  }
}

function imu(c) {
  const gyro = [c.f64(), c.f64(), c.f64()];
  const accel = [c.f64(), c.f64(), c.f64()];
  const temperature = c.f32();
  if (![...gyro, ...accel, temperature].every(Number.isFinite)) fail("an IMU value is not finite");
  if (Math.abs(accel[2] - 9.81) > 1e-12) fail(`accel.z ${accel[2]} is not 9.81`);
  return { gyro, accel, temperature };
}

const decoders = {
  "/praxis/imu": (c) => imu(c),
  "/praxis/sample_state": (c) => {
    const m = { tick: c.u64(), mode: c.u8(), enabled: c.u8(), temperature: c.i16(), imu: imu(c) };
    m.foot_force = [c.f32(), c.f32()];
    m.label = c.string();
    m.error_code = c.i32();
    if (m.mode > 3 || m.enabled > 1) fail(`mode ${m.mode} or enabled ${m.enabled} out of range`);
    if (m.label !== "walking" && m.label !== "standing") fail(`label "${m.label}"`);
    if (m.error_code !== -1) fail(`error_code ${m.error_code} is not -1`);
    return m;
  },
  "/praxis/phase": (c) => ({ phase: c.f64(), count: c.u32() }),
};

const ws = new WebSocket(`ws://127.0.0.1:${port}/`, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
const client = new FoxgloveClient({ ws });
const timer = setTimeout(() => {
  const counts = [...received.values()].map((r) => `${r.topic}: ${r.messages.length}`).join(", ");
  fail(`fewer than ${MIN_MESSAGES} messages per channel within ${TIME_LIMIT_MS} ms (${counts || "no subscription"})`);
}, TIME_LIMIT_MS);

let serverInfo = null;
const received = new Map(); // subscription id -> { topic, messages: [{ time, value }] }

client.on("error", (error) => fail(`client error: ${error?.message ?? error}`));
client.on("close", (event) => fail(`server closed the connection (${event.code} ${event.reason})`));
client.on("serverInfo", (info) => {
  serverInfo = info;
  if (info.name !== "praxis-sample") fail(`serverInfo name "${info.name}"`);
  if (!Array.isArray(info.capabilities) || info.capabilities.length !== 0) {
    fail(`capabilities ${JSON.stringify(info.capabilities)}: a read-only server offers none`);
  }
});
client.on("status", (status) => fail(`status from the server: ${status.message}`));
client.on("advertise", (channels) => {
  if (serverInfo === null) fail("advertise before serverInfo");
  const topics = channels.map((c) => c.topic).sort();
  if (topics.join(",") !== [...expected.keys()].sort().join(",")) fail(`advertised topics ${topics}`);
  for (const channel of channels) {
    const want = expected.get(channel.topic);
    if (channel.encoding !== "cdr") fail(`${channel.topic}: encoding "${channel.encoding}"`);
    if (channel.schemaEncoding !== "ros2msg") fail(`${channel.topic}: schemaEncoding "${channel.schemaEncoding}"`);
    if (channel.schemaName !== want.schemaName) fail(`${channel.topic}: schemaName "${channel.schemaName}"`);
    if (channel.schema !== want.schema) fail(`${channel.topic}: schema ${JSON.stringify(channel.schema)}`);
    received.set(client.subscribe(channel.id), { topic: channel.topic, messages: [] });
  }
});
client.on("message", ({ subscriptionId, timestamp, data }) => {
  const r = received.get(subscriptionId);
  if (r === undefined) fail(`a message for subscription ${subscriptionId}, which this client never made`);
  const c = new Cdr(data);
  const value = decoders[r.topic](c);
  c.end();
  const previous = r.messages.at(-1);
  if (previous !== undefined) {
    if (timestamp <= previous.time) fail(`${r.topic}: timestamp ${timestamp} after ${previous.time}`);
    // The rate limit: at 50 Hz no two messages closer than 20 ms of log time.
    const want = expected.get(r.topic);
    if (want.rateHz > 0 && timestamp - previous.time < BigInt(Math.round(1e9 / want.rateHz))) {
      fail(`${r.topic}: messages ${timestamp - previous.time} ns apart, closer than ${want.rateHz} Hz allows`);
    }
    // Rate 0: every message, so the counter has no gap.
    if (r.topic === "/praxis/phase" && value.count !== previous.value.count + 1) {
      fail(`/praxis/phase: count ${value.count} after ${previous.value.count} (a message was skipped)`);
    }
    if (r.topic === "/praxis/sample_state" && value.tick <= previous.value.tick) fail("sample_state: tick did not grow");
  }
  r.messages.push({ time: timestamp, value });
  if (received.size === expected.size && [...received.values()].every((x) => x.messages.length >= MIN_MESSAGES)) {
    const text = (v) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x));
    for (const x of received.values()) {
      if (text(x.messages[0].value) === text(x.messages.at(-1).value)) fail(`${x.topic}: values never changed`);
    }
    clearTimeout(timer);
    const counts = [...received.values()].map((x) => `${x.topic} ${x.messages.length}`).join(", ");
    console.log(`PASS: Foxglove's client read ${counts}`);
    process.exit(0);
  }
});
