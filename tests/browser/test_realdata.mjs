// Pages of real files (SPEC §16, issue 31): samples of the shared import
// corpus (../shared/corpus/imports beside the checkout) — files the tools
// themselves wrote — imported through POST /api/v1/import of the real
// server, then each page a person would open, at desktop (1280 px) and phone
// (390 px) widths, with no console error and nothing wider than the window:
// the call tree of a Caliper and a CUBE profile, a TAU run, a Google
// Benchmark suite's application page and its chart, an OSU system's log–log
// latency and bandwidth plots, an OTF2 trace page and its Perfetto export
// (/runs/{id}/trace.json), a clang -ftime-trace page (no MPI calls).
// Screenshots in <artifacts>/realdata/.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, relative, basename } from "node:path";
import { fileURLToPath } from "node:url";
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(here, "../../../shared/corpus/imports");
if (!existsSync(CORPUS)) {
  console.log(`SKIP: no import corpus at ${CORPUS} (../shared/corpus/imports beside the checkout)`);
  process.exit(0);
}

// A directory as a tar archive of its files, names relative to it (what
// tests/api/test_corpus_imports.py sends for TAU and OTF2).
function files(dir) {
  const out = [];
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}
function body(sample) {
  const full = join(CORPUS, sample);
  if (!statSync(full).isDirectory()) return readFileSync(full);
  return execFileSync("tar", ["--format=gnu", "-cf", "-", "-C", full,
    ...files(full).map((p) => relative(full, p))], { maxBuffer: 1 << 28 });
}

async function importFile(server, sample, query) {
  const q = new URLSearchParams({ filename: basename(sample), ...query });
  const res = await fetch(`${server.base}/api/v1/import?${q}`, {
    method: "POST", body: body(sample),
    headers: { "Authorization": "Bearer " + server.token,
               "Content-Type": "application/octet-stream" },
  });
  const got = await res.json();
  assert(res.status === 201, `${sample}: HTTP ${res.status} ${JSON.stringify(got)}`);
  return got;
}

async function pageAt(browser, url, width, what) {
  const page = await watchedPage(browser, width, width < 600 ? 844 : 900);
  const res = await page.goto(url, { waitUntil: "networkidle" });
  assert(res.status() === 200, `${what}: HTTP ${res.status()}`);
  await assertNoHorizontalOverflow(page, `${what} at ${width} px`);
  return page;
}

// Both widths: check(page, width) asserts, then a screenshot; no defect.
async function bothWidths(browser, url, name, check) {
  for (const width of [1280, 390]) {
    const page = await pageAt(browser, url, width, name);
    await check(page, width);
    await screenshot(page, `realdata/${name}-${width}`);
    page.assertClean(`${name} at ${width} px`);
    await page.context().close();
  }
}

// A number with a unit: "1.23 s", "456 ms", "12.5 µs", "3.4 %".
const WITH_UNIT = /^-?[\d.,]+(e[+-]?\d+)?\s?(ns|µs|us|ms|s|min|h|%)$/;

// The call tree: nested <details>, a head row naming the columns, and per
// row an inclusive and an exclusive time written with a unit.
async function assertCallTree(page, what, { minDepth, names }) {
  const tree = page.locator("div.calltree");
  assert(await tree.count() === 1, `${what}: no call tree`);
  const head = await tree.locator(".ct-head").innerText();
  for (const col of ["Inclusive", "Exclusive"])
    assert(head.includes(col), `${what}: tree head ${JSON.stringify(head)}`);
  const depth = await tree.evaluate((t) => {
    let best = 0;
    for (const d of t.querySelectorAll("details")) {
      let n = 0;
      for (let e = d; e && e !== t; e = e.parentElement) if (e.tagName === "DETAILS") n++;
      best = Math.max(best, n);
    }
    return best;
  });
  assert(depth >= minDepth, `${what}: call tree nested ${depth} deep, want >= ${minDepth}`);
  const rows = await tree.evaluate((t) =>
    [...t.querySelectorAll("summary, .ct-leaf")].map((r) => ({
      name: r.querySelector(".ct-name")?.textContent.trim(),
      title: r.querySelector(".ct-name")?.getAttribute("title") || "",
      incl: r.querySelector(".ct-incl")?.textContent.trim(),
      excl: r.querySelector(".ct-excl")?.textContent.trim(),
    })));
  assert(rows.length >= names.length, `${what}: ${rows.length} rows`);
  for (const r of rows) {
    assert(WITH_UNIT.test(r.incl) || r.incl === "—", `${what}: inclusive ${JSON.stringify(r)}`);
    assert(WITH_UNIT.test(r.excl) || r.excl === "—", `${what}: exclusive ${JSON.stringify(r)}`);
  }
  for (const n of names)
    assert(rows.some((r) => r.name === n), `${what}: no node ${n} in ${rows.map((r) => r.name)}`);
  return rows;
}

// A table's value column is in sight at both widths (long call paths and
// metric names wrap instead of pushing it out of the box).
async function assertColumnInSight(page, width, header, what) {
  const th = page.locator("th", { hasText: new RegExp(`^${header}$`) }).first();
  const box = await th.boundingBox();
  assert(box && box.x + box.width <= width,
    `${what}: the ${header} column is out of sight (${JSON.stringify(box)})`);
}
const assertKernelTimesInSight = (page, width, what) => assertColumnInSight(page, width, "Time", what);

test("a Caliper profile's call tree", async ({ server, browser }) => {
  const got = await importFile(server, "caliper-json/hatchet_caliper-ex_2.2.0-dev.json",
    { format: "caliper-json", application: "caliper ex", system: "quartz" });
  assert(got.ids.length === 1, JSON.stringify(got));
  await bothWidths(browser, `${server.base}/runs/${got.ids[0]}`, "caliper-run", async (page, width) => {
    await assertCallTree(page, "caliper", { minDepth: 2, names: ["main"] });
    await assertKernelTimesInSight(page, width, "caliper");
  });
});

test("a CUBE profile's call tree", async ({ server, browser }) => {
  const got = await importFile(server, "cube/pycubexr_kripke.p8_profile.cubex",
    { format: "cube", application: "kripke", system: "cluster" });
  assert(got.ids.length === 1, JSON.stringify(got));
  await bothWidths(browser, `${server.base}/runs/${got.ids[0]}`, "cube-run", async (page, width) => {
    await assertCallTree(page, "cube", { minDepth: 2, names: ["PARALLEL", "Solve", "Sweep"] });
    await assertKernelTimesInSight(page, width, "cube");
    // statistics of the time metric over ranks are times too
    const metrics = await page.locator("span.metric").allInnerTexts();
    const mean = metrics.find((m) => m.startsWith("inclusive_mean "));
    assert(mean && WITH_UNIT.test(mean.slice("inclusive_mean ".length)), `inclusive_mean: ${mean}`);
  });
});

test("a TAU run (8 ranks)", async ({ server, browser }) => {
  const got = await importFile(server, "tau/tau2_xmain_8ranks",
    { format: "tau", application: "xmain", system: "cluster" });
  assert(got.ids.length === 1, JSON.stringify(got));
  await bothWidths(browser, `${server.base}/runs/${got.ids[0]}`, "tau-run", async (page, width) => {
    const h1 = await page.locator("h1").innerText();
    assert(h1.includes(String(got.ids[0])), `heading ${h1}`);
    const text = await page.locator("main").innerText();
    assert(!/\d\.\d{9,}/.test(text), "float noise on the TAU run page");
    // TAU's MPI user events are message sizes: bytes
    const row = page.locator("tr", { hasText: /^Message size for broadcast\.max/ }).first();
    const val = (await row.locator("td").last().innerText()).trim();
    assert(/^[\d.]+ (B|KiB|MiB)$/.test(val), `broadcast size: ${val}`);
    await assertColumnInSight(page, width, "Value", "TAU metrics");
    await assertKernelTimesInSight(page, width, "TAU");
  });
});

test("a Google Benchmark suite's application page", async ({ server, browser }) => {
  const got = await importFile(server, "gbench/cxxgraph_base.json",
    { format: "gbench", system: "laptop" });
  assert(got.ids.length >= 1, JSON.stringify(got));
  const runRes = await server.api("GET", `/api/v1/runs/${got.ids[0]}`);
  const app = runRes.body.application;
  await bothWidths(browser, `${server.base}/applications/${encodeURIComponent(app)}`,
    "gbench-app", async (page) => {
      // one executable (AddEdgeX) is a series over arg1; the other 14
      // benchmarks are no series: the suite's bars show every one of them
      const bars = page.locator("figure.plot svg:visible", { hasText: "Mean runtime per configuration" });
      assert(await bars.count() === 1, "no chart of mean runtime per configuration");
      const box = await bars.boundingBox();
      assert(box && box.width > 150 && box.height > 80, `gbench chart ${JSON.stringify(box)}`);
      const cap = await page.locator("figure.plot", { hasText: "Mean runtime per configuration" })
        .locator("figcaption").innerText();
      assert(cap.includes("19 configurations"), `caption: ${cap}`);
      assert(await bars.locator("rect").count() >= 19, "fewer bars than configurations");
    });
});

test("an OSU system's log–log plots", async ({ server, browser }) => {
  for (const f of ["excalibur_alaska-roce-ompi4_osu_allgather.out",
                   "excalibur_alaska-roce-ompi4_osu_alltoall.out",
                   "excalibur_alaska-roce-ompi4_osu_bibw.out",
                   "excalibur_alaska-roce-ompi4_osu_mbw_mr_16.out",
                   "hpc2023_osu_latency_7.4_multiblock.out"])
    await importFile(server, `osu/${f}`, { format: "osu", system: "alaska" });
  await bothWidths(browser, `${server.base}/systems/alaska`, "osu-system", async (page) => {
    const text = await page.locator("main").innerText();
    for (const t of ["Latency over message size", "Bandwidth over message size"])
      assert(text.includes(t), `no plot "${t}"`);
    const plots = page.locator("figure.plot svg");
    assert(await plots.count() >= 2, "fewer than two plots");
  });
});

test("an OTF2 trace page and its Perfetto export", async ({ server, browser }) => {
  const got = await importFile(server, "otf2/pipit_ping-pong-otf2-papi",
    { format: "otf2", application: "ping-pong", system: "cluster" });
  const id = got.ids[0];
  await bothWidths(browser, `${server.base}/runs/${id}/trace`, "otf2-trace", async (page) => {
    const h1 = await page.locator("h1").innerText();
    assert(h1.includes(`Trace of run ${id}`), `heading: ${h1}`);
    const svg = page.locator("section#timeline figure svg:visible");
    assert(await svg.count() === 1, "no timeline");
    // Score-P defines 189 regions, a few entered: the occupancy figures list
    // those, and count the rest
    const rows = await page.locator("section#occupancy tr").allInnerTexts();
    const never = rows.find((r) => r.startsWith("States never occupied"));
    assert(never && Number(never.split(/\s+/).pop()) > 100, `occupancy: ${never}`);
    assert(rows.length < 40, `occupancy lists ${rows.length} rows`);
    const chart = await page.locator("section#occupancy figure svg:visible").innerHTML();
    assert(!chart.includes("other ("), "the occupancy chart sums never-occupied states as other");
  });
  const res = await fetch(`${server.base}/runs/${id}/trace.json`);
  assert(res.status === 200 && res.headers.get("content-type") === "application/json",
    `trace.json: ${res.status} ${res.headers.get("content-type")}`);
  const doc = await res.json();
  const xs = doc.traceEvents.filter((e) => e.ph === "X");
  assert(xs.length > 0, "no X events");
  for (const e of xs)
    assert(typeof e.name === "string" && e.ts >= 0 && e.dur >= 0 && e.pid !== undefined &&
      e.tid !== undefined, `bad X event ${JSON.stringify(e)}`);
});

test("a clang -ftime-trace page: one thread, no MPI sections", async ({ server, browser }) => {
  // clang writes a "Total NAME" summary per name, each on a thread id of its
  // own: kernels, not 140 more threads; a trace without MPI calls shows no
  // wait, traffic or load section but says why, and calls its lanes threads
  const got = await importFile(server, "chrome-trace/clang16_main.json",
    { format: "chrome-trace", system: "laptop" });
  const id = got.ids[0];
  await bothWidths(browser, `${server.base}/runs/${id}/trace`, "clang-trace", async (page, width) => {
    const intro = await page.locator("h1 + p").innerText();
    assert(intro.startsWith("1 thread, 658 events"), `intro: ${intro}`);
    assert(await page.locator("#no-mpi").isVisible(), "no sentence about MPI");
    const ids = await page.locator("section.trace-analysis").evaluateAll(
      (ss) => ss.map((s) => s.id));
    assert(ids.join() === "profile,timeline,occupancy,clusters", `sections: ${ids}`);
    for (const name of ids) {
      const svg = page.locator(`section#${name} figure svg`).first();
      const box = await svg.boundingBox();
      assert(await svg.isVisible() && box && box.height > 60, `${name}: no chart`);
    }
    const heads = await page.locator("h2").allInnerTexts();
    assert(!heads.some((h) => /rank|MPI/.test(h)), `headings: ${heads}`);
    // a long state name (an LLVM pass manager's template) wraps: every
    // occupancy figure's value is in the window
    for (const cell of await page.locator("section#occupancy td.num").all()) {
      const b = await cell.boundingBox();
      assert(b && b.x + b.width <= width, `a value out of sight at ${width} px`);
    }
  });
});

test("an Extra-P file without a time metric: runs and kernels without a time", async ({ server, browser }) => {
  // metric `metr` only (SPEC §16): no runtime, no kernel time; "—" for both
  // and for the share, the metric as measured, no breakdown drawn as zeros
  const got = await importFile(server, "extrap-jsonl/extended1.jsonl",
    { format: "extrap-jsonl", application: "no time", system: "cluster" });
  assert(got.ids.length === 125, JSON.stringify(got).slice(0, 200));
  await bothWidths(browser, `${server.base}/runs/${got.ids[0]}`, "notime-run", async (page, width) => {
    const rt = await page.locator("dt", { hasText: /^Runtime$/ }).locator("xpath=following-sibling::dd[1]").innerText();
    assert(rt.trim() === "—", `runtime: ${rt}`);
    const row = page.locator("table", { has: page.locator("caption", { hasText: /^Kernels$/ }) })
      .locator("tbody tr").first();
    const cells = (await row.locator("td").allInnerTexts()).map((c) => c.trim());
    assert(cells[1] === "test" && cells[2] === "—" && cells[3] === "—", `kernel row ${JSON.stringify(cells)}`);
    assert(/metr\s+\d/.test(cells[5]), `kernel metrics ${JSON.stringify(cells[5])}`);
    const note = page.locator("p.muted", { hasText: "No kernel of this run has a time" });
    assert(await note.count() === 1 && await note.isVisible(), "no note in place of the breakdown");
    assert(await page.locator("figure.plot svg:visible", { hasText: "Kernel breakdown" }).count() === 0,
      "a breakdown of kernels without a time");
    await assertKernelTimesInSight(page, width, "no time");
  });
});

test("a call tree whose kernels have no time in part", async ({ server, browser }) => {
  // timed and untimed paths in one run: the untimed ones read "—" for
  // inclusive, exclusive and share, the breakdown holds the timed ones only
  const res = await server.api("POST", "/api/v1/runs", {
    application: "part time", executable: "x", system: "cluster", nprocs: 4, runtime: 4.0,
    kernels: [{ name: "main", time: 1.0, metrics: { inclusive: 3.0 } },
              { name: "main/solve", time: 2.0 },
              { name: "main/io", time: null, metrics: { bytes: 8388608 } },
              { name: "aux/poll", time: null, metrics: { visits: 12 } }] });
  assert(res.status === 201, JSON.stringify(res.body));
  await bothWidths(browser, `${server.base}/runs/${res.body.ids[0]}`, "parttime-run", async (page, width) => {
    const rows = await assertCallTree(page, "part time", { minDepth: 1, names: ["main", "solve", "io", "poll"] });
    for (const r of rows.filter((x) => ["main/io", "aux", "aux/poll"].includes(x.title)))
      assert(r.incl === "—" && r.excl === "—", `untimed ${JSON.stringify(r)}`);
    const solve = rows.find((x) => x.title === "main/solve");
    assert(solve.incl === "2 s" && solve.excl === "2 s", `solve ${JSON.stringify(solve)}`);
    const legend = await page.locator("figure.plot svg:visible", { hasText: "Kernel breakdown" }).innerHTML();
    assert(legend.includes(">main/solve<") && !legend.includes(">main/io<") && !legend.includes(">aux/poll<"),
      "the breakdown draws a kernel without a time");
    await assertKernelTimesInSight(page, width, "part time");
  });
});

run();
