// The live server's own page in headless Chromium (puppeteer-core), against
// tests/observe/live_sample_server:
//   node page_check.mjs <port>
//   node page_check.mjs <port> --demo <joints> [topic] [field] [points]   against praxis_demo --live instead
// Opens http://127.0.0.1:<port>/, checks the channel list and the flattened numeric fields of a
// nested schema, picks a channel and fields, waits until the plot has points whose values change,
// checks decoded values the sample server fixes (accel.z = 9.81, error_code = -1, gyro in [-1, 1]),
// and saves a screenshot (live_page.png) in the working directory. Prints PASS or FAIL: <what>.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";

const port = Number(process.argv[2]);
const WAIT_MS = 20000;
let browser = null;
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "praxis-chromium-"));

async function fail(what) {
  console.log(`FAIL: ${what}`);
  if (browser !== null) await browser.close().catch(() => {});
  fs.rmSync(userDataDir, { recursive: true, force: true });
  process.exit(1);
}

async function waitFor(page, what, fn, ...args) {
  try {
    await page.waitForFunction(fn, { timeout: WAIT_MS, polling: 100 }, ...args);
  } catch {
    await fail(`${what} within ${WAIT_MS} ms`);
  }
}

// The plotted points, read through the page's Chart.js object.
const points = (page) => page.evaluate(() => window.praxisChart.data.datasets[0].data.map((p) => ({ ...p })));

// Picks a field and waits for `n` points of it whose values are not all equal (or all equal: `constant`).
async function plot(page, field, n, constant) {
  await page.select("#field", field);
  await waitFor(page, `${n} points of ${field}`, (f, k) => {
    const c = window.praxisChart;
    return document.querySelector("#field").value === f && c.data.datasets[0].label.endsWith(" " + f) &&
      c.data.datasets[0].data.length >= k;
  }, field, n);
  const data = await points(page);
  const distinct = new Set(data.map((p) => p.y)).size;
  if (!constant && distinct < 5) await fail(`${field}: only ${distinct} distinct values in ${data.length} points`);
  for (let i = 1; i < data.length; ++i) {
    if (!(data[i].x > data[i - 1].x)) await fail(`${field}: log times do not grow at point ${i}`);
  }
  if (data.at(-1).x - data[0].x > 10.05) await fail(`${field}: the plot spans more than 10 s`);
  return data;
}

process.on("unhandledRejection", (e) => fail(`unexpected error: ${e?.stack ?? e}`));
if (!fs.existsSync("/usr/bin/chromium")) await fail("no Chromium at /usr/bin/chromium (scripts/install-js-test-deps.sh installs it)");
browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  userDataDir,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await browser.newPage();
await page.setViewport({ width: 1200, height: 800 });
const errors = [];
page.on("pageerror", (e) => errors.push(e.message));
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
const response = await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: "load" });
if (response.status() !== 200) await fail(`GET / answered ${response.status()}`);
if (!(await page.evaluate(() => typeof Chart === "function"))) await fail("Chart.js did not load from /chart.js");

if (process.argv[3] === "--demo") await demo(page);

// praxis_demo --live (tests/support/live_demo_test.sh): a real controller's channels, schemas from
// observe/cdr.hpp; the target of a joint the user's sinusoid moves, plotted as it moves.
async function demo(page) {
  const joints = Number(process.argv[4]);
  await waitFor(page, "the demo's channels listed", () => document.querySelectorAll("#channel option").length >= 30);
  const listed = await page.$$eval("#channel option", (os) => os.map((o) => ({ value: o.value, text: o.textContent })));
  for (const t of ["/praxis/robot_state", "/praxis/actuated_command", "/praxis/motion_selection", "/praxis/events/transitions"]) {
    if (!listed.some((o) => o.text.startsWith(t + " "))) await fail(`channel ${t} not listed`);
  }
  const state = listed.find((o) => o.text.startsWith("/praxis/robot_state "));
  await page.select("#channel", state.value);
  await waitFor(page, "robot_state's fields", () => document.querySelectorAll("#field option").length > 0);
  const fields = await page.$$eval("#field option", (os) => os.map((o) => o.value));
  for (const f of ["q[0]", `q[${joints - 1}]`, "imu.orientation.w", "projected_gravity[2]", `health[${joints - 1}].temperature`, "sequence"]) {
    if (!fields.includes(f)) await fail(`robot_state has no field ${f} in the page: ${fields.slice(0, 12).join(",")}...`);
  }
  // A channel and field of the caller's choice (default: the cycle's clock, which moves whatever
  // the robot does, so a loaded machine's late start cannot find it standing still).
  const topic = process.argv[5] ?? "/praxis/cycle";
  const field = process.argv[6] ?? "now";
  const points = Number(process.argv[7] ?? 200);
  const chosen = listed.find((o) => o.text.startsWith(topic + " "));
  if (chosen === undefined) await fail(`channel ${topic} not listed`);
  await page.select("#channel", chosen.value);
  await waitFor(page, `${topic}'s fields`, (f) => [...document.querySelectorAll("#field option")].some((o) => o.value === f),
    field);
  const data = await plot(page, field, points, false);
  if (errors.length > 0) await fail(`errors in the page: ${errors.join("; ")}`);
  const screenshot = path.resolve("live_page_demo.png");
  await page.screenshot({ path: screenshot });
  await browser.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
  console.log(`PASS: the page plotted ${data.length} points of the demo's ${topic} ${field}; screenshot: ${screenshot}`);
  process.exit(0);
}

await waitFor(page, "three channels listed", () => document.querySelectorAll("#channel option").length === 3);
const options = await page.$$eval("#channel option", (os) => os.map((o) => ({ value: o.value, text: o.textContent })));
const topics = ["/praxis/imu", "/praxis/sample_state", "/praxis/phase"];
for (const t of topics) {
  if (!options.some((o) => o.text.startsWith(t + " "))) await fail(`channel ${t} not listed: ${JSON.stringify(options)}`);
}
const state = options.find((o) => o.text.startsWith("/praxis/sample_state "));
if (!state.text.includes("praxis_msgs/msg/SampleState")) await fail(`the list does not name the schema: ${state.text}`);

await page.select("#channel", state.value);
const expected = ["tick", "mode", "enabled", "temperature", "imu.gyro[0]", "imu.gyro[1]", "imu.gyro[2]",
  "imu.accel[0]", "imu.accel[1]", "imu.accel[2]", "imu.temperature", "foot_force[0]", "foot_force[1]", "error_code"];
await waitFor(page, "the nested schema's fields", (n) => document.querySelectorAll("#field option").length === n,
  expected.length);
const fields = await page.$$eval("#field option", (os) => os.map((o) => o.value));
if (fields.join(",") !== expected.join(",")) await fail(`fields ${fields}, expected ${expected}`);

// Values the sample server fixes, past the string and the alignment gaps of the nested type.
const accel = await plot(page, "imu.accel[2]", 5, true);
if (!accel.every((p) => Math.abs(p.y - 9.81) < 1e-12)) await fail(`imu.accel[2] is not 9.81: ${accel[0].y}`);
const code = await plot(page, "error_code", 5, true);
if (!code.every((p) => p.y === -1)) await fail(`error_code is not -1: ${code[0].y}`);

const gyro = await plot(page, "imu.gyro[0]", 60, false);
if (!gyro.every((p) => p.y >= -1 && p.y <= 1)) await fail("imu.gyro[0] outside [-1, 1]: decoded wrongly");
const shown = await page.$eval("#value", (e) => e.textContent);
if (!shown.startsWith("imu.gyro[0] = ")) await fail(`the value shown is "${shown}"`);
if (errors.length > 0) await fail(`errors in the page: ${errors.join("; ")}`);

const screenshot = path.resolve("live_page.png");
await page.screenshot({ path: screenshot });
await browser.close();
fs.rmSync(userDataDir, { recursive: true, force: true });
console.log(`PASS: the page plotted ${gyro.length} points of /praxis/sample_state imu.gyro[0]; screenshot: ${screenshot}`);
