// A run's trace page in a real browser: the 4-rank pattern program
// (uploader/trace/tests/pattern.c) recorded under real Open MPI, sent with
// `prophecy-upload trace`, then the run page's link followed to
// /runs/{id}/trace, where every analysis' section must show a visible,
// drawn chart and its links, with no console error, at desktop and phone
// widths (screenshots in the artifacts directory). On a phone no chart is
// shrunk until its text is unreadable: a wide one scrolls sideways in its
// figure instead.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow, BIN } from "./lib.mjs";

const NAMES = ["profile", "wait", "traffic", "load", "timeline", "occupancy", "clusters"];

function recordAndSend(server) {
  const dir = mkdtempSync(join(tmpdir(), "prophecy-browser-trace-"));
  try {
    execFileSync("mpirun", ["--oversubscribe", "--allow-run-as-root", "-x", "LD_PRELOAD",
      "-x", "PROPHECY_TRACE_DIR", "-np", "4", join(BIN, "trace_pattern")], {
      env: { ...process.env, LD_PRELOAD: join(BIN, "../uploader/trace/libprophecy_trace.so"),
             PROPHECY_TRACE_DIR: dir },
      stdio: ["ignore", "ignore", "inherit"], timeout: 120000,
    });
    const out = execFileSync(join(BIN, "prophecy-upload"), ["--server", server.base,
      "--token", server.token, "--no-flush", "--spool", join(dir, "spool"), "trace", dir,
      "--application", "pattern", "--executable", "pattern", "--system", "test"], {
      stdio: ["ignore", "pipe", "inherit"] });
    return Number(out.toString().trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the trace page shows every analysis", async ({ server, browser }) => {
  const id = recordAndSend(server);
  assert(id > 0, `no run id (${id})`);
  const page = await watchedPage(browser);
  await page.goto(`${server.base}/runs/${id}`, { waitUntil: "networkidle" });
  await page.locator(`a[href="/runs/${id}/trace"]`).click();
  await page.waitForURL(new RegExp(`/runs/${id}/trace$`));
  await page.waitForLoadState("networkidle");
  const h1 = await page.locator("h1").innerText();
  assert(h1.includes(`Trace of run ${id}`), `heading: ${h1}`);
  for (const name of NAMES) {
    const section = page.locator(`section#${name}`);
    assert(await section.count() === 1, `${name}: no section`);
    const svg = section.locator("figure svg").first();
    const box = await svg.boundingBox();
    assert(await svg.isVisible() && box && box.width > 150 && box.height > 80,
      `${name}: chart not visible (${JSON.stringify(box)})`);
    assert(await svg.locator("rect, path, circle, line").count() > 3, `${name}: empty chart`);
    const json = section.locator(`a[href="/api/v1/runs/${id}/trace/${name}"]`);
    assert(await json.count() === 1, `${name}: no JSON link`);
  }
  // the table of contents leads to each section
  await page.locator('nav.toc a[href="#occupancy"]').click();
  assert(page.url().endsWith("#occupancy"), `toc: ${page.url()}`);
  // a JSON link answers the analysis
  const res = await fetch(`${server.base}/api/v1/runs/${id}/trace/wait`);
  const wait = await res.json();
  assert(res.status === 200 && wait.nranks === 4 && wait.wait.length === 4, "wait JSON");
  await screenshot(page, "trace-1280");
  page.assertClean("trace page");

  const phone = await watchedPage(browser, 390, 844);
  await phone.goto(`${server.base}/runs/${id}/trace`, { waitUntil: "networkidle" });
  await assertNoHorizontalOverflow(phone, "trace page on a phone");
  // each chart's 12-pixel text is drawn at 9 pixels or more (shrunk to
  // the phone's width, a 760-pixel chart's would be under 6)
  for (const name of NAMES) {
    const px = await phone.locator(`section#${name} figure svg`).first().evaluate(
      (svg) => 12 * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    assert(px >= 9, `${name}: text ${px.toFixed(1)} px high on a phone`);
  }
  await screenshot(phone, "trace-390");
  phone.assertClean("trace page on a phone");
});

run();
