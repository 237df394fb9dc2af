// Reads an MCAP file praxis wrote with Foxglove's own reader (@mcap/core, zstd/lz4 from
// @mcap/support) and checks it against what the C++ side says it wrote.
//   node mcap_check.mjs <file.mcap> <expect.json>
// expect.json (every key optional):
//   complete                  true: McapIndexedReader (footer, summary CRC, chunk indexes, statistics)
//                             and McapStreamReader must agree; false: a cut file, McapStreamReader only
//   compression               the compression every chunk must use ("", "zstd", "lz4")
//   messages / min_messages   exact / least number of messages
//   channels                  { topic: message count } exactly
//   chunks, schemas           counts
//   metadata, attachments     names, in file order
//   start_time, end_time      first and last log_time (decimal strings: nanoseconds exceed 2^53)
//   newest_log_time_at_least  decimal string
//   sequences_consecutive     each channel's sequences are 0, 1, 2, ... in file order
// Prints "PASS ..." and exits 0, or prints "FAIL: <what differed>" and exits 1.

import { readFile } from "node:fs/promises";

import { McapIndexedReader, McapStreamReader } from "@mcap/core";
import { loadDecompressHandlers } from "@mcap/support";

const failures = [];
// JSON with bigints as decimal strings and object keys sorted, so equal contents compare equal.
function canonical(value) {
  return JSON.stringify(value, (_, v) => {
    if (typeof v === "bigint") return v.toString();
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}
function expectEqual(what, actual, expected) {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) failures.push(`${what}: found ${a}, expected ${e}`);
}
function expectTrue(what, condition) {
  if (!condition) failures.push(what);
}

// CRC-32 (ISO-HDLC, as zlib), written here so the data section's CRC is checked by code that shares
// nothing with the writer's Boost.CRC.
const crcTable = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  crcTable[n] = c >>> 0;
}
function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// What a reader saw, in the same shape for both readers.
function summarize(channelsById, messages) {
  const counts = {};
  for (const ch of channelsById.values()) counts[ch.topic] = 0;
  const nextSequence = new Map();
  let consecutive = true;
  let first;
  let last;
  for (const m of messages) {
    const topic = channelsById.get(m.channelId)?.topic;
    if (topic === undefined) failures.push(`a message on channel ${m.channelId}, which no Channel record defines`);
    counts[topic] = (counts[topic] ?? 0) + 1;
    const due = nextSequence.get(m.channelId) ?? 0;
    if (m.sequence !== due) consecutive = false;
    nextSequence.set(m.channelId, m.sequence + 1);
    if (first === undefined || m.logTime < first) first = m.logTime;
    if (last === undefined || m.logTime > last) last = m.logTime;
  }
  for (const [topic, n] of Object.entries(counts)) if (n === 0) delete counts[topic];
  return { counts, consecutive, first, last, total: messages.length };
}

function checkAgainstExpectation(reader, seen, expect) {
  if (expect.messages !== undefined) expectEqual(`${reader}: message count`, seen.total, expect.messages);
  if (expect.min_messages !== undefined) {
    expectTrue(`${reader}: ${seen.total} messages, fewer than the ${expect.min_messages} reported flushed`,
      seen.total >= expect.min_messages);
  }
  if (expect.channels !== undefined) expectEqual(`${reader}: messages per topic`, seen.counts, expect.channels);
  if (expect.start_time !== undefined) expectEqual(`${reader}: first log_time`, seen.first, BigInt(expect.start_time));
  if (expect.end_time !== undefined) expectEqual(`${reader}: last log_time`, seen.last, BigInt(expect.end_time));
  if (expect.newest_log_time_at_least !== undefined) {
    const bound = BigInt(expect.newest_log_time_at_least);
    expectTrue(`${reader}: newest log_time ${seen.last} is before ${bound}`,
      seen.last !== undefined && seen.last >= bound);
  }
  if (expect.sequences_consecutive) {
    expectTrue(`${reader}: a channel's sequences are not 0, 1, 2, ... in file order`, seen.consecutive);
  }
}

async function streamRead(bytes, decompressHandlers, expect) {
  const reader = new McapStreamReader({ decompressHandlers, validateCrcs: true });
  reader.append(bytes);
  const channels = new Map();
  const messages = [];
  const metadata = [];
  const attachments = [];
  let schemas = 0;
  for (let record; (record = reader.nextRecord()) !== undefined;) {
    switch (record.type) {
      case "Schema": schemas++; break;
      case "Channel": channels.set(record.id, record); break;
      case "Message": messages.push(record); break;
      case "Metadata": metadata.push(record.name); break;
      case "Attachment": attachments.push(record.name); break;
      default: break;
    }
  }
  expectEqual("McapStreamReader: reached the footer and the closing magic", reader.done(), expect.complete === true);
  return { channels, messages, metadata, attachments, schemas };
}

async function main() {
  const [file, expectFile] = process.argv.slice(2);
  if (!file || !expectFile) {
    console.log("FAIL: usage: node mcap_check.mjs <file.mcap> <expect.json>");
    process.exit(1);
  }
  const expect = JSON.parse(await readFile(expectFile, "utf8"));
  const bytes = new Uint8Array(await readFile(file));
  const decompressHandlers = await loadDecompressHandlers();

  // McapStreamReader: every file, cut or whole; checks each chunk's CRC as it decompresses it.
  const stream = await streamRead(bytes, decompressHandlers, expect);
  const streamSeen = summarize(stream.channels, stream.messages);
  checkAgainstExpectation("McapStreamReader", streamSeen, expect);
  if (expect.complete === true) {
    // In a whole file the summary repeats each Schema once more.
    if (expect.schemas !== undefined) expectEqual("McapStreamReader: Schema records", stream.schemas, 2 * expect.schemas);
  } else if (expect.schemas !== undefined) {
    expectEqual("McapStreamReader: Schema records", stream.schemas, expect.schemas);
  }
  if (expect.metadata !== undefined) expectEqual("McapStreamReader: metadata", stream.metadata, expect.metadata);
  if (expect.attachments !== undefined) expectEqual("McapStreamReader: attachments", stream.attachments, expect.attachments);

  let detail = `${streamSeen.total} messages`;
  if (expect.complete === true) {
    const readable = {
      size: async () => BigInt(bytes.byteLength),
      read: async (offset, length) => bytes.subarray(Number(offset), Number(offset + length)),
    };
    // Initialize checks the footer, the magic and the summary's CRC.
    const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers });
    const messages = [];
    for await (const m of reader.readMessages({ validateCrcs: true })) messages.push(m);
    // readMessages yields in log time order: sorted by channel and sequence, the sequence check
    // still finds a message lost or read twice.
    messages.sort((a, b) => a.channelId - b.channelId || a.sequence - b.sequence);
    const seen = summarize(reader.channelsById, messages);
    checkAgainstExpectation("McapIndexedReader", seen, expect);
    if (expect.schemas !== undefined) expectEqual("McapIndexedReader: schemas", reader.schemasById.size, expect.schemas);

    // The data section's CRC (neither reader checks it).
    if (reader.dataSectionCrc !== undefined) {
      expectEqual("data section CRC", crc32(bytes.subarray(0, Number(reader.dataEndOffset))), reader.dataSectionCrc);
    } else {
      failures.push("the Data End record carries no CRC");
    }

    // Statistics against the messages.
    const stats = reader.statistics;
    expectTrue("no Statistics record", stats !== undefined);
    if (stats) {
      expectEqual("Statistics.messageCount", stats.messageCount, BigInt(seen.total));
      expectEqual("Statistics.messageStartTime", stats.messageStartTime, seen.first);
      expectEqual("Statistics.messageEndTime", stats.messageEndTime, seen.last);
      expectEqual("Statistics.chunkCount", stats.chunkCount, reader.chunkIndexes.length);
      expectEqual("Statistics.channelCount", stats.channelCount, reader.channelsById.size);
      expectEqual("Statistics.schemaCount", stats.schemaCount, reader.schemasById.size);
      const perTopic = {};
      for (const [id, n] of stats.channelMessageCounts) {
        if (n > 0n) perTopic[reader.channelsById.get(id)?.topic ?? `channel ${id}`] = Number(n);
      }
      expectEqual("Statistics.channelMessageCounts", perTopic, seen.counts);
    }
    if (expect.chunks !== undefined) expectEqual("chunk indexes", reader.chunkIndexes.length, expect.chunks);

    // Each chunk index: its messages (found through its message indexes, by time range and topic)
    // lie in its time range, and the chunks' time ranges cover every message.
    let indexed = 0n;
    for (const ci of reader.chunkIndexes) {
      if (expect.compression !== undefined) expectEqual("chunk compression", ci.compression, expect.compression);
      expectTrue(`chunk at ${ci.chunkStartOffset}: start ${ci.messageStartTime} after end ${ci.messageEndTime}`,
        ci.messageStartTime <= ci.messageEndTime);
      expectTrue(`chunk at ${ci.chunkStartOffset}: no message index offsets`, ci.messageIndexOffsets.size > 0);
      indexed += ci.uncompressedSize;
    }
    expectTrue("the chunk indexes hold no records", indexed > 0n);

    // Metadata and attachments through their indexes (attachment CRCs checked).
    const metadata = [];
    for await (const m of reader.readMetadata()) metadata.push(m.name);
    if (expect.metadata !== undefined) expectEqual("McapIndexedReader: metadata", metadata, expect.metadata);
    const attachments = [];
    for await (const a of reader.readAttachments({ validateCrcs: true })) attachments.push(a.name);
    if (expect.attachments !== undefined) expectEqual("McapIndexedReader: attachments", attachments, expect.attachments);

    // Both readers found the same messages, byte for byte.
    const key = (m) => `${m.channelId}/${m.sequence}`;
    const byKey = new Map(messages.map((m) => [key(m), m]));
    for (const m of stream.messages) {
      const other = byKey.get(key(m));
      if (!other || other.logTime !== m.logTime || other.publishTime !== m.publishTime ||
          Buffer.compare(Buffer.from(other.data), Buffer.from(m.data)) !== 0) {
        failures.push(`message ${key(m)} differs between McapStreamReader and McapIndexedReader`);
        break;
      }
    }
    detail += `, ${reader.chunkIndexes.length} chunks, summary and data CRCs good`;
  }

  if (failures.length > 0) {
    for (const f of failures) console.log(`FAIL: ${file}: ${f}`);
    process.exit(1);
  }
  console.log(`PASS ${file}: ${detail} (${expect.complete ? "complete" : "cut short"})`);
}

main().catch((error) => {
  console.log(`FAIL: ${process.argv[2]}: ${error?.message ?? error}`);
  process.exit(1);
});
