// The live server's own page (GET /): plain HTML and JavaScript, no build step, nothing fetched but
// /chart.js (Debian's Chart.js) from the same server. It speaks the Foxglove WebSocket protocol to the
// host it came from, reads each channel's ros2msg schema, decodes CDR and plots one numeric field of
// one channel over the last 10 seconds. `?channel=<topic>&field=<path>` preselects both.

#include "praxis/observe/live_server.hpp"

namespace praxis::observe {

namespace {

constexpr std::string_view k_page = R"page(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>praxis live</title>
<link rel="icon" href="data:,">
<style>
  body { font-family: system-ui, sans-serif; margin: 1em 2em; color: #222; }
  header { display: flex; gap: 1.5em; align-items: baseline; flex-wrap: wrap; }
  h1 { font-size: 1.3em; margin: 0; }
  #status { color: #666; }
  #status.error { color: #b00; }
  label { margin-right: 1em; }
  select { font: inherit; max-width: 28em; }
  #value { font-family: monospace; font-size: 1.1em; }
  #plot { position: relative; height: 65vh; margin-top: 1em; }
</style>
<script src="/chart.js"></script>
</head>
<body>
<header>
  <h1>praxis live <span id="server"></span></h1>
  <span id="status">connecting...</span>
</header>
<p>
  <label>Channel <select id="channel"></select></label>
  <label>Field <select id="field"></select></label>
  <span id="value"></span>
</p>
<div id="plot"><canvas id="chart"></canvas></div>
<script>
"use strict";
const WINDOW_S = 10;  // seconds of log time on the plot
// ros2msg primitive -> [size in bytes, DataView getter]
const PRIMITIVES = {
  bool: [1, "Uint8"], byte: [1, "Uint8"], char: [1, "Uint8"], int8: [1, "Int8"], uint8: [1, "Uint8"],
  int16: [2, "Int16"], uint16: [2, "Uint16"], int32: [4, "Int32"], uint32: [4, "Uint32"],
  int64: [8, "BigInt64"], uint64: [8, "BigUint64"], float32: [4, "Float32"], float64: [8, "Float64"],
};

// A ros2msg text: the main type's fields, then each nested type after a line of '=' and "MSG: pkg/Type".
function parseSchema(text) {
  const types = {};
  let main = null;
  for (const section of text.split(/^=+[ \t]*$/m)) {
    const lines = section.split("\n").map((l) => l.replace(/#.*/, "").trim()).filter((l) => l !== "");
    const name = lines.length > 0 && lines[0].startsWith("MSG:") ? lines.shift().slice(4).trim() : null;
    const fields = lines.map((line) => {
      const [type, field] = line.split(/\s+/);
      const m = /^([\w/]+)(?:\[(\d+)\])?$/.exec(type);
      if (m === null || field === undefined) throw new Error(`unsupported schema line "${line}"`);
      return { name: field, type: m[1], length: m[2] === undefined ? null : Number(m[2]) };
    });
    if (main === null) main = fields;
    else types[name] = fields;
  }
  const resolve = (type) => {
    const found = types[type] ?? types[type.replace("/msg/", "/")] ??
      Object.entries(types).find(([n]) => n.endsWith("/" + type))?.[1];
    if (found === undefined) throw new Error(`no definition of ${type}`);
    return found;
  };
  return { main, resolve };
}

// Every numeric leaf of a type as a flat path: imu.gyro[0], mode, ...
function numericPaths(schema, fields = schema.main, prefix = "") {
  const paths = [];
  for (const f of fields) {
    for (let i = 0; i < (f.length ?? 1); ++i) {
      const path = prefix + f.name + (f.length === null ? "" : `[${i}]`);
      if (f.type in PRIMITIVES) paths.push(path);
      else if (f.type !== "string") paths.push(...numericPaths(schema, schema.resolve(f.type), path + "."));
    }
  }
  return paths;
}

// ROS 2 CDR after the 4-byte encapsulation header; each primitive aligned to its size from the byte
// after the header. Fills `out` with path -> number.
function decodeCdr(schema, view) {
  const littleEndian = view.getUint8(1) === 1;
  let at = 4;
  const primitive = (type) => {
    const [size, getter] = PRIMITIVES[type];
    at += (size - ((at - 4) % size)) % size;
    const v = view["get" + getter](at, littleEndian);
    at += size;
    return typeof v === "bigint" ? Number(v) : v;
  };
  const out = {};
  const read = (fields, prefix) => {
    for (const f of fields) {
      for (let i = 0; i < (f.length ?? 1); ++i) {
        const path = prefix + f.name + (f.length === null ? "" : `[${i}]`);
        if (f.type in PRIMITIVES) out[path] = primitive(f.type);
        else if (f.type === "string") {
          const length = primitive("uint32");  // bytes + NUL; read before `at` is, unlike `at += ...`
          at += length;
        }
        else read(schema.resolve(f.type), path + ".");
      }
    }
  };
  read(schema.main, "");
  return out;
}

const $ = (id) => document.getElementById(id);
const channels = new Map();  // channel id -> { topic, schemaName, schema, paths }
let socket = null;
let subscription = null;     // { id, channelId }
let nextSubscriptionId = 1;
let t0 = null;               // the first plotted log time, seconds
const wanted = new URLSearchParams(location.search);

function setStatus(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

const chart = typeof Chart === "undefined" ? null : new Chart($("chart"), {
  type: "line",
  data: { datasets: [{ label: "", data: [], borderColor: "#1f77b4", borderWidth: 1.5, pointRadius: 0 }] },
  options: {
    animation: false, parsing: false, normalized: true, maintainAspectRatio: false,
    scales: { x: { type: "linear", title: { display: true, text: "log time (s)" } } },
  },
});
window.praxisChart = chart;  // for tests and the curious, from the browser's console
let redrawPending = false;
function redraw() {
  if (redrawPending || chart === null) return;
  redrawPending = true;
  requestAnimationFrame(() => { redrawPending = false; chart.update("none"); });
}

function clearPlot() {
  t0 = null;
  if (chart === null) return;
  chart.data.datasets[0].data = [];
  const ch = channels.get(Number($("channel").value));
  chart.data.datasets[0].label = ch ? `${ch.topic} ${$("field").value}` : "";
  redraw();
}

function send(message) {
  if (socket !== null && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function chooseChannel() {
  if (subscription !== null) send({ op: "unsubscribe", subscriptionIds: [subscription.id] });
  subscription = null;
  const ch = channels.get(Number($("channel").value));
  $("field").replaceChildren(...(ch ? ch.paths : []).map((p) => new Option(p, p)));
  if (ch && ch.paths.includes(wanted.get("field"))) $("field").value = wanted.get("field");
  if (ch) {
    subscription = { id: nextSubscriptionId++, channelId: Number($("channel").value) };
    send({ op: "subscribe", subscriptions: [{ id: subscription.id, channelId: subscription.channelId }] });
  }
  clearPlot();
}

function advertise(list) {
  for (const c of list) {
    let schema = null, paths = [], problem = "";
    try {
      if (c.encoding !== "cdr" || (c.schemaEncoding ?? "ros2msg") !== "ros2msg") throw new Error(`${c.encoding} data`);
      schema = parseSchema(c.schema);
      paths = numericPaths(schema);
    } catch (e) {
      problem = ` (cannot plot: ${e.message})`;
    }
    channels.set(c.id, { topic: c.topic, schemaName: c.schemaName, schema, paths });
    const option = new Option(`${c.topic}  [${c.schemaName}]${problem}`, c.id);
    option.disabled = schema === null;
    $("channel").add(option);
  }
  const preferred = [...channels].find(([, c]) => c.topic === wanted.get("channel"));
  if (preferred) $("channel").value = preferred[0];
  setStatus(`${channels.size} channels` + (chart === null ? "; Chart.js did not load from /chart.js (install Debian's libjs-chart.js): values only" : ""), chart === null);
  if (subscription === null) chooseChannel();
}

function message(data) {
  const view = new DataView(data);
  if (view.getUint8(0) !== 1 || subscription === null || view.getUint32(1, true) !== subscription.id) return;
  const ch = channels.get(subscription.channelId);
  const seconds = Number(view.getBigUint64(5, true)) / 1e9;
  const value = decodeCdr(ch.schema, new DataView(data, 13))[$("field").value];
  if (value === undefined) return;
  $("value").textContent = `${$("field").value} = ${value}`;
  if (chart === null) return;
  if (t0 === null) t0 = seconds;
  const points = chart.data.datasets[0].data;
  points.push({ x: seconds - t0, y: value });
  while (points.length > 0 && points[0].x < seconds - t0 - WINDOW_S) points.shift();
  redraw();
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/`, ["foxglove.websocket.v1"]);
  socket.binaryType = "arraybuffer";
  socket.onmessage = (event) => {
    if (typeof event.data !== "string") return message(event.data);
    const m = JSON.parse(event.data);
    if (m.op === "serverInfo") $("server").textContent = `- ${m.name}`;
    else if (m.op === "advertise") advertise(m.channels);
    else if (m.op === "status") setStatus(m.message, m.level >= 2);
  };
  socket.onclose = () => {
    setStatus("disconnected; trying again in 2 s", true);
    channels.clear();
    subscription = null;
    $("channel").replaceChildren();
    $("field").replaceChildren();
    setTimeout(connect, 2000);
  };
}

$("channel").onchange = chooseChannel;
$("field").onchange = clearPlot;
connect();
</script>
</body>
</html>
)page";

}  // namespace

std::string_view live_page() { return k_page; }

}  // namespace praxis::observe
