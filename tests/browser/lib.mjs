// Shared harness of the browser tests: starts the real prophecyd (--demo,
// fresh temporary database, free port), creates a write token, launches
// Debian's headless Chromium through playwright-core, watches every page for
// console errors, page errors, failed requests and unexpected HTTP errors,
// and saves screenshots as artifacts.
//
// Environment: PROPHECY_BIN (directory of prophecyd), PROPHECY_ARTIFACTS
// (where screenshots go), CHROMIUM (default /usr/bin/chromium).
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const BIN = process.env.PROPHECY_BIN || join(here, "../../build/bin");
export const ARTIFACTS = process.env.PROPHECY_ARTIFACTS || join(here, "artifacts");
const PROPHECYD = join(BIN, "prophecyd");

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function waitForPort(port, proc, ms) {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (proc.exitCode !== null) return reject(new Error(`prophecyd exited ${proc.exitCode}`));
      const c = connect(port, "127.0.0.1");
      c.on("connect", () => { c.destroy(); resolve(); });
      c.on("error", () => {
        c.destroy();
        if (Date.now() > deadline) reject(new Error("prophecyd did not start"));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

export async function startServer() {
  const tmp = mkdtempSync(join(tmpdir(), "prophecy-browser-"));
  const db = join(tmp, "test.db");
  const port = await freePort();
  const proc = spawn(PROPHECYD, ["serve", "--db", db, "--listen", `127.0.0.1:${port}`,
    "--demo", "--quiet"], { stdio: ["ignore", "inherit", "inherit"] });
  await waitForPort(port, proc, 15000);
  const token = execFileSync(PROPHECYD, ["token", "create", "browser", "--db", db])
    .toString().trim();
  const base = `http://127.0.0.1:${port}`;
  return {
    base, db, token, tmp,
    async api(method, path, body) {
      const res = await fetch(base + path, {
        method,
        headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    // Everything stored, for "nothing changed" checks.
    async snapshot() {
      const res = await fetch(base + "/api/v1/export?format=json");
      return await res.text();
    },
    async stop() {
      proc.kill("SIGTERM");
      await new Promise((r) => proc.exitCode !== null ? r() : proc.on("exit", r));
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

// A page that records everything that would be a defect: console errors and
// warnings, uncaught exceptions, dialogs (alert() from injected script),
// failed requests and HTTP errors other than those the test expects.
export async function watchedPage(browser, width = 1280, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const problems = [];
  page.expectStatus = new Map(); // url -> status the test expects
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    // Chromium logs every HTTP error response; one the test asked for is no defect.
    const want = page.expectStatus.get(m.location().url);
    if (want !== undefined && m.text().includes(`status of ${want}`)) return;
    problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", async (d) => { problems.push(`dialog: ${d.message()}`); await d.dismiss(); });
  // A request the browser itself cancelled (net::ERR_ABORTED: the next
  // navigation started while a subresource such as the icon was still
  // loading, which happens on a loaded machine) says nothing about the
  // server; every other failure, and every response >= 400, is a problem.
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText || "";
    if (why === "net::ERR_ABORTED" && r.resourceType() !== "document") return;
    problems.push(`request failed: ${r.url()} ${why}`);
  });
  page.on("response", (r) => {
    const want = page.expectStatus.get(r.url());
    if (want !== undefined ? r.status() !== want : r.status() >= 400)
      problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.problems = problems;
  page.assertClean = (what) => {
    if (problems.length) {
      const list = problems.splice(0).join("\n  ");
      throw new Error(`${what}:\n  ${list}`);
    }
  };
  return page;
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// The body must not be wider than the viewport (nothing scrolls sideways but
// the table boxes made for it).
export async function assertNoHorizontalOverflow(page, what) {
  const { scroll, inner } = await page.evaluate(() => ({
    scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
    inner: window.innerWidth,
  }));
  if (scroll > inner) throw new Error(`${what}: the page is ${scroll}px wide in a ${inner}px window`);
  await assertNoSqueezedCells(page, what);
}

// A table that scrolls sideways has room: none of its cells may be squeezed
// narrower than a word of its text, breaking "-0.00411076" into rows of four
// characters (overflow-wrap: anywhere lets a column shrink to one character)
// or a timestamp at its hyphens. A word here ends at a blank, after a "/" and
// at a hyphen before a letter ("h-sys" may break; "2026-12-02", "1e-08" not).
// Call paths (td.path) and words longer than 24 characters (hashes) may break.
export async function assertNoSqueezedCells(page, what) {
  const squeezed = await page.evaluate(() => {
    const canvas = document.createElement("canvas").getContext("2d");
    const out = [];
    for (const td of document.querySelectorAll(".table-wrap td:not(.path)")) { // paths wrap
      if (td.getClientRects().length === 0) continue; // hidden
      const cs = getComputedStyle(td);
      const inner = td.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      for (const el of [td, ...td.querySelectorAll("*")]) {
        const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join(" ");
        const st = getComputedStyle(el);
        canvas.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
        for (const w of text.split(/\s+|(?<=\/)|-(?=\p{L})/u)) {
          if (!w.length || w.length > 24) continue;
          const need = canvas.measureText(w).width;
          if (need > inner + 1) { out.push(`"${w}" needs ${Math.round(need)}px in a ${Math.round(inner)}px cell`); break; }
        }
      }
    }
    return out;
  });
  if (squeezed.length)
    throw new Error(`${what}: table cells narrower than their words: ${squeezed.slice(0, 5).join("; ")}`);
}

// Every chart shown (an inline <svg> in a figure.plot) has text people can
// read: each of its <text> elements at `min` px or more as rendered, its font
// size times the scale the drawing is shown at. A desktop drawing shrunk into
// a phone's width would show its 12-unit labels at 5-6 px. Returns the number
// of charts checked.
export async function assertReadablePlots(page, what, min = 9) {
  const { small, charts } = await page.evaluate((min) => {
    const small = [];
    let charts = 0;
    // a plot as an image of an SVG file: its labels (12 units) at its scale
    for (const img of document.querySelectorAll("figure.plot img")) {
      if (img.getClientRects().length === 0 || !img.naturalWidth) continue;
      charts++;
      const px = 12 * img.getBoundingClientRect().width / img.naturalWidth;
      if (px < min) small.push(`image ${img.getAttribute("src")}: labels at ${px.toFixed(1)}px`);
    }
    for (const svg of document.querySelectorAll("figure.plot svg")) {
      if (svg.getClientRects().length === 0) continue; // the drawing for the other width
      charts++;
      for (const t of svg.querySelectorAll("text")) {
        const m = t.getScreenCTM();
        if (!t.textContent.trim() || !m) continue;
        const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
        if (px < min) {
          small.push(`"${svg.querySelector("title")?.textContent.slice(0, 40)}": ` +
                     `"${t.textContent.slice(0, 30)}" at ${px.toFixed(1)}px`);
          break;
        }
      }
    }
    return { small, charts };
  }, min);
  if (small.length)
    throw new Error(`${what}: chart text below ${min}px: ${small.join("; ")}`);
  return charts;
}

// Every <input> says its type: the stylesheet styles text fields by
// input[type=text], so one without the attribute looks unlike the others.
export async function assertInputsTyped(page, what) {
  const untyped = await page.$$eval("input:not([type])", (els) =>
    els.map((e) => e.name || e.id || e.outerHTML.slice(0, 60)));
  if (untyped.length) throw new Error(`${what}: <input> without a type: ${untyped.join(", ")}`);
}

// Every choice of every select shown fits the closed select: a select shows
// its chosen option only, cut at its width ("MPISR · Testing Same CCD, D…"
// in a grid column), so each option's text, measured in the select's own
// font, must fit inside its padding beside the arrow (20 px).
export async function assertSelectsWhole(page, what) {
  const cut = await page.evaluate(() => {
    const ctx = document.createElement("canvas").getContext("2d");
    const out = [];
    for (const sel of document.querySelectorAll("select")) {
      if (sel.getClientRects().length === 0) continue;
      const cs = getComputedStyle(sel);
      ctx.font = cs.font;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
      for (const o of sel.options) {
        const w = ctx.measureText(o.text).width;
        if (w > room) out.push(`${sel.name}: "${o.text}" (${w.toFixed(0)} px in ${room.toFixed(0)})`);
      }
    }
    return out;
  });
  if (cut.length) throw new Error(`${what}: choices cut in their select: ${cut.slice(0, 5).join("; ")}`);
}

// Clicks (click: a function that clicks) and waits for the page it leads to
// to load. Not waitForLoadState("networkidle") beside the click: that one
// answers for the page still shown, so the test could read the old page.
export async function clickThrough(page, click) {
  await Promise.all([page.waitForNavigation({ waitUntil: "networkidle" }), click()]);
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

let passed = 0, failed = 0;
const tests = [];
export function test(name, fn) { tests.push({ name, fn }); }

// Runs the registered tests in order against one server and one browser,
// printing "ok"/"FAIL" per test and the closing "N passed, M failed".
export async function run() {
  let server, browser;
  try {
    server = await startServer();
    browser = await launch();
    for (const t of tests) {
      try {
        await t.fn({ server, browser });
        passed++;
        console.log(`ok   ${t.name}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${t.name}\n${e.stack || e}`);
      }
    }
  } catch (e) {
    failed++;
    console.log(`FAIL setup\n${e.stack || e}`);
  } finally {
    if (browser) await browser.close();
    if (server) await server.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
