#!/usr/bin/python3
"""Whether two MCAP recordings hold the same messages: every channel's topic and schema, every
message's channel, sequence, log time, publish time and bytes, in order, and the same metadata.

How the writer cut its chunks is left out: the recorder's thread closes a chunk when it catches up,
which depends on the machine, not on the run. Reads uncompressed recordings only
(praxis_demo --record-compression none); says so for others.

    mcap_same_messages.py A.mcap B.mcap    prints "same: N messages" (exit 0) or the first difference (exit 1)
"""
import struct
import sys

MAGIC = b"\x89MCAP0\r\n"
OP_SCHEMA, OP_CHANNEL, OP_MESSAGE, OP_CHUNK, OP_METADATA = 0x03, 0x04, 0x05, 0x06, 0x0C


def string(buf, pos):
    n = struct.unpack_from("<I", buf, pos)[0]
    return buf[pos + 4:pos + 4 + n].decode(), pos + 4 + n


def records(buf, pos, end):
    while pos < end:
        op = buf[pos]
        n = struct.unpack_from("<Q", buf, pos + 1)[0]
        yield op, buf[pos + 9:pos + 9 + n]
        pos += 9 + n


def read(path):
    buf = open(path, "rb").read()
    if not buf.startswith(MAGIC) or not buf.endswith(MAGIC):
        sys.exit(f"{path}: not a complete MCAP file")
    out = {"schemas": {}, "channels": {}, "messages": [], "metadata": []}

    def take(op, body):
        if op == OP_SCHEMA:
            sid = struct.unpack_from("<H", body, 0)[0]
            out["schemas"][sid] = body[2:]
        elif op == OP_CHANNEL:
            cid, sid = struct.unpack_from("<HH", body, 0)
            topic, _ = string(body, 4)
            out["channels"][cid] = (topic, sid)
        elif op == OP_MESSAGE:
            cid, seq, log_time, publish_time = struct.unpack_from("<HIQQ", body, 0)
            out["messages"].append((cid, seq, log_time, publish_time, body[22:]))
        elif op == OP_METADATA:
            out["metadata"].append(body)

    # Records outside chunks, then inside each chunk; a summary section repeats schemas and channels.
    for op, body in records(buf, len(MAGIC), len(buf) - len(MAGIC)):
        if op == OP_CHUNK:
            pos = 8 + 8 + 8 + 4  # start and end time, uncompressed size and CRC
            compression, pos = string(body, pos)
            if compression:
                sys.exit(f"{path}: chunks compressed with {compression}: record with --record-compression none")
            n = struct.unpack_from("<Q", body, pos)[0]
            for inner in records(body, pos + 8, pos + 8 + n):
                take(*inner)
        else:
            take(op, body)
    return out


def main():
    a, b = read(sys.argv[1]), read(sys.argv[2])
    topic = lambda rec, cid: rec["channels"].get(cid, ("?", 0))[0]
    for cid in sorted(set(a["channels"]) | set(b["channels"])):
        ca, cb = a["channels"].get(cid), b["channels"].get(cid)
        if ca is None or cb is None or ca[0] != cb[0] or a["schemas"].get(ca[1]) != b["schemas"].get(cb[1]):
            print(f"channel {cid} differs: {ca} against {cb}")
            return 1
    for k, (x, y) in enumerate(zip(a["messages"], b["messages"])):
        if x != y:
            fields = [n for n, i in (("sequence", 1), ("log time", 2), ("publish time", 3), ("bytes", 4)) if x[i] != y[i]]
            print(f"message {k} on {topic(a, x[0])} differs: {', '.join(fields) or 'channel'}")
            return 1
    if len(a["messages"]) != len(b["messages"]):
        print(f"{len(a['messages'])} messages against {len(b['messages'])}")
        return 1
    if a["metadata"] != b["metadata"]:
        print("the metadata differs")
        return 1
    if not a["messages"]:
        print("no messages")
        return 1
    print(f"same: {len(a['messages'])} messages on {len(a['channels'])} channels, and the metadata")
    return 0


if __name__ == "__main__":
    sys.exit(main())
