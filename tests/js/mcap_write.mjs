// Writes an MCAP file with Foxglove's own writer (@mcap/core McapWriter), for praxis' reader to read:
// schemas and channels inside chunks, channel ids from 0, its own summary layout.
//   node mcap_write.mjs <file.mcap> <none|zstd> <expect.json>
// expect.json says what is in it: messages, per-topic counts, the sum of every data byte, metadata
// and attachment names, schemas, chunks (observe_mcap_tool read checks them).

import { open, writeFile } from "node:fs/promises";

import { McapWriter } from "@mcap/core";
// A dependency of @mcap/support (pinned in package-lock.json); only its compressor is used here.
import zstd from "@foxglove/wasm-zstd";

const [file, compression, expectFile] = process.argv.slice(2);
if (!file || !["none", "zstd"].includes(compression) || !expectFile) {
  console.log("FAIL: usage: node mcap_write.mjs <file.mcap> <none|zstd> <expect.json>");
  process.exit(1);
}
await zstd.isLoaded;

const handle = await open(file, "w");
let position = 0n;
const writable = {
  position: () => position,
  write: async (buffer) => {
    await handle.write(buffer);
    position += BigInt(buffer.byteLength);
  },
};
const writer = new McapWriter({
  writable,
  chunkSize: 8 * 1024,
  compressChunk: compression === "zstd"
    ? (data) => ({ compression: "zstd", compressedData: zstd.compress(data, 3) })
    : undefined,
});
await writer.start({ profile: "ros2", library: "@mcap/core test" });
const encoder = new TextEncoder();
const topics = ["/praxis/robot_state", "/motion_command", "/praxis/imu"];
const channels = [];
for (const [i, topic] of topics.entries()) {
  const schemaId = await writer.registerSchema({
    name: `praxis_msgs/msg/T${i}`,
    encoding: "ros2msg",
    data: encoder.encode(`float64[${i + 2}] values\n`),
  });
  channels.push(await writer.registerChannel({
    schemaId, topic, messageEncoding: "cdr", metadata: new Map([["index", String(i)]]),
  }));
}
await writer.addMetadata({ name: "run", metadata: new Map([["robot", "g1"]]) });
await writer.addAttachment({
  name: "params.json", mediaType: "application/json", logTime: 5n, createTime: 6n,
  data: encoder.encode("{\"kp\": 40}"),
});
const counts = {};
let dataSum = 0;
let total = 0;
for (let cycle = 0; cycle < 1500; cycle++) {
  for (const [i, channelId] of channels.entries()) {
    if (i === 2 && cycle % 3 !== 0) continue;
    const data = new Uint8Array(4 + 8 * (i + 2));
    data[1] = 1;
    for (let k = 4; k < data.length; k++) data[k] = (cycle * 7 + k + i) & 0xff;
    for (const b of data) dataSum += b;
    const logTime = 1_000_000_000n + BigInt(cycle) * 1_000_000n;
    await writer.addMessage({ channelId, sequence: counts[topics[i]] ?? 0, logTime, publishTime: logTime, data });
    counts[topics[i]] = (counts[topics[i]] ?? 0) + 1;
    total++;
  }
}
await writer.end();
await handle.close();
await writeFile(expectFile, JSON.stringify({
  messages: total, channels: counts, data_sum: dataSum, metadata: ["run"], attachments: ["params.json"],
  schemas: topics.length, compression: compression === "zstd" ? "zstd" : "",
}, null, 2));
console.log(`wrote ${file}: ${total} messages with @mcap/core's McapWriter (${compression})`);
