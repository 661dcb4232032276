// Issue 14 item 8: what a new user found wrong on the dashboard, each checked
// in the real browser with screenshots: the pager's working links look like
// links; a failed Save lands at the error with the permanent link kept; the
// kernel breakdown is labelled by configuration in order; plot text is
// readable on a 390 px phone; speedup and efficiency plots and the axes
// toggle (no script needed); the CSV download is exactly the filtered table.
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow }
  from "./lib.mjs";

const MATMUL = "matmul (example)";
const SGI = "SGI Origin2000 (example)";
const APP = "browser-fixes";

test("setup: runs of a processor series and of single configurations", async ({ server }) => {
  const runs = [];
  for (let i = 0; i < 120; i++) {
    const P = [1, 2, 4, 8][i % 4];
    runs.push({ application: APP, executable: "fx.x", system: i % 3 ? "fx-a" : "fx-b",
                nprocs: P, runtime: 100 / P + (i % 5) * 0.1, inputs: { N: 1000 },
                kernels: [{ name: "solve", time: 80 / P }, { name: "io", time: 5 }] });
  }
  const up = await server.api("POST", "/api/v1/runs", { runs });
  assert(up.status === 201, `upload ${up.status}`);
  // an application without a processor series: one P, three N
  const single = [50, 1000, 200].map((N, i) => ({
    application: APP + "-n", executable: "n.x", system: "fx-a", nprocs: 4,
    runtime: N / 100, inputs: { N }, kernels: [{ name: "k", time: N / 200 }] }));
  const up2 = await server.api("POST", "/api/v1/runs", { runs: single });
  assert(up2.status === 201, `upload 2 ${up2.status}`);
});

test("the pager's working links look like links, the inert ends do not", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(`${server.base}/applications/${APP}`);
  const style = (sel) => page.locator(sel).first().evaluate((el) => {
    const s = getComputedStyle(el);
    return { color: s.color, border: s.borderTopStyle, weight: s.fontWeight };
  });
  const next = await style(".pager a[rel=next]");
  const last = await style(".pager a[rel=last]");
  const off = await style(".pager span.off");
  const top = await style("header.top nav a");
  assert(next.color === "rgb(31, 95, 191)" && last.color === next.color,
    `Next/Last in the accent colour, not the top bar's (${next.color})`);
  assert(top.color !== next.color, "the top bar keeps its own colour");
  assert(off.color !== next.color && off.border === "dashed", `inert ends differ: ${JSON.stringify(off)}`);
  await page.locator("#runs").scrollIntoViewIfNeeded();
  await screenshot(page, "fixes-pager-1280");
  page.assertClean("pager");
  await page.context().close();
});

test("a failed Save shows its error where the user is and keeps the link", async ({ server, browser }) => {
  const page = await watchedPage(browser, 1280, 800);
  const q = new URLSearchParams({ application: MATMUL, executable: "matmul_sgi", system: SGI,
    graph: "poly3", x: "N", y: "runtime", "fix.nprocs": "8", predict: "1200", step: "result" });
  const perm = `/model/fit?${q}`;
  await page.goto(server.base + perm, { waitUntil: "networkidle" });
  const permalink = await page.locator("#permalink").getAttribute("href");
  const before = (await server.api("GET", "/api/v1/models")).body.models.length;
  await page.fill("#save-token", "pt_wrong");
  page.expectStatus.set(`${server.base}/model/fit`, 401);
  await page.locator("#save-button").click();
  await page.waitForSelector("#save-token-error");
  await page.waitForLoadState("networkidle");
  // the error is in the viewport, not 2,600 px below it
  const box = await page.locator("#save-error").boundingBox();
  assert(box && box.y >= 0 && box.y < 800, `save error at y=${box && box.y} in an 800 px window`);
  const tokenErr = await page.locator("#save-token-error").boundingBox();
  assert(tokenErr && tokenErr.y >= 0 && tokenErr.y < 800, "token error visible");
  assert(await page.evaluate(() => document.activeElement.id) === "save-token", "token field focused");
  // the error comes first on the page, above the result
  const result = await page.locator("#predicted").boundingBox();
  assert(result && box.y < result.y, "the error above the result");
  // the address is the result's permanent link again, and it is on the page
  const url = new URL(page.url());
  assert(url.pathname + url.search === permalink, `address ${page.url()} is the permanent link`);
  assert(await page.locator("#save-permalink").getAttribute("href") === permalink, "link beside the error");
  assert((await server.api("GET", "/api/v1/models")).body.models.length === before, "nothing saved");
  await screenshot(page, "fixes-save-failed-1280");
  // reloading shows the result (a GET), not a resent POST
  await page.reload({ waitUntil: "networkidle" });
  assert(await page.locator("#predicted").count() === 1, "reload shows the result");
  // the 401 of the refused POST is the expected answer, not a defect
  const other = page.problems.splice(0).filter((p) => !p.includes("401"));
  assert(other.length === 0, `failed save: ${other.join("; ")}`);
  page.assertClean("failed save");
  await page.context().close();
});

test("kernel breakdown: bars labelled by configuration, in order", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  for (const [app, want] of [[APP, ["P=1", "P=2", "P=4", "P=8"]],
                             [APP + "-n", ["P=4, N=50", "P=4, N=200", "P=4, N=1000"]]]) {
    await page.goto(`${server.base}/applications/${app}`);
    const fig = page.locator("h2#kernels + figure svg.wide");
    const labels = await fig.locator("text").allTextContents();
    const bars = labels.filter((t) => want.includes(t));
    assert(JSON.stringify(bars) === JSON.stringify(want), `${app}: bars ${JSON.stringify(labels)}`);
    assert(!labels.some((t) => /^run \d+$/.test(t)), `${app}: no run-id labels`);
    await fig.scrollIntoViewIfNeeded();
    await screenshot(page, `fixes-breakdown-${app === APP ? "series" : "configs"}-1280`);
  }
  page.assertClean("breakdown");
  await page.context().close();
});

test("plot text is readable on a 390 px phone", async ({ server, browser }) => {
  const page = await watchedPage(browser, 390, 844);
  await page.goto(`${server.base}/applications/${APP}`);
  await assertNoHorizontalOverflow(page, "application page at 390 px");
  // each plot is drawn twice, wide and narrow; the phone shows the narrow one
  assert(await page.locator("figure.plot svg.wide").first().isHidden(), "wide drawings hidden");
  const sizes = await page.$$eval("figure.plot svg", (svgs) => svgs.filter((svg) =>
    svg.getBoundingClientRect().width > 0).map((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    let min = Infinity;
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      min = Math.min(min, parseFloat(getComputedStyle(t).fontSize) * scale);
    }
    return min;
  }));
  assert(sizes.length >= 4, `${sizes.length} plots`);
  for (const s of sizes) assert(s >= 9, `smallest plot text ${s.toFixed(1)} px at 390 px`);
  await page.locator("h2#scaling").scrollIntoViewIfNeeded();
  await screenshot(page, "fixes-plots-390");
  page.assertClean("phone plots");
  await page.context().close();
});

test("speedup and efficiency plots, axes toggle without script", async ({ server, browser }) => {
  const ctx = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(`${server.base}/applications/${APP}?system=fx-a`);
  const titles = await page.$$eval("figure.plot svg.wide > title", (ts) => ts.map((t) => t.textContent));
  for (const t of ["Runtime over processors", "Speedup over processors",
                   "Parallel efficiency over processors"])
    assert(titles.includes(t), `plot "${t}" in ${JSON.stringify(titles)}`);
  const linearTicks = async () => page.$$eval("figure.plot svg", (svgs) =>
    svgs[0].outerHTML.includes('stroke="#f1f1f1"'));
  await page.locator("a[data-axes=log]").click();
  await page.waitForURL(/axes=log/);
  assert(new URL(page.url()).searchParams.get("system") === "fx-a", "the filter is kept");
  assert(await linearTicks(), "log axes: minor decade grid drawn");
  assert(await page.locator("a[data-axes=log][aria-current=true]").count() === 1, "log marked");
  await screenshot(page, "fixes-axes-log-1280");
  // the table's links keep the choice
  await page.locator("a[rel=next]").click();
  await page.waitForURL(/page=2/);
  assert(page.url().includes("axes=log"), `paging keeps axes: ${page.url()}`);
  await page.locator("a[data-axes=linear]").click();
  await page.waitForURL(/axes=linear/);
  assert(!(await linearTicks()), "linear axes: no decade grid");
  await screenshot(page, "fixes-axes-linear-1280");
  await ctx.close();
});

test("CSV download is exactly the filtered table", async ({ server, browser }) => {
  const ctx = await browser.newContext({ acceptDownloads: true });
  const page = await ctx.newPage();
  await page.goto(`${server.base}/applications/${APP}?system=fx-b&sort=runtime&dir=asc`);
  const summary = await page.locator("#runs-summary").innerText();
  const total = Number(summary.split(" ")[0]);
  const firstPage = await page.$$eval("#runs-table tbody tr td:first-child",
    (tds) => tds.map((td) => td.textContent.trim()));
  const [download] = await Promise.all([page.waitForEvent("download"),
                                        page.locator("#runs-csv").click()]);
  assert(download.suggestedFilename() === `${APP}-runs.csv`, download.suggestedFilename());
  const path = await download.path();
  const { readFileSync } = await import("node:fs");
  const lines = readFileSync(path, "utf8").split("\r\n").filter((l) => l);
  assert(lines[0] === "run,executable,system,nprocs,N,runtime,kernels,stored,commit,branch",
         lines[0]);
  const rows = lines.slice(1).map((l) => l.split(","));
  assert(rows.length === total && total === 40, `${rows.length} rows for ${total} runs`);
  assert(rows.every((r) => r[2] === "fx-b"), "only the filtered system");
  assert(JSON.stringify(rows.slice(0, firstPage.length).map((r) => r[0])) ===
         JSON.stringify(firstPage), "the table's order");
  const rt = rows.map((r) => Number(r[5]));
  assert(rt.every((v, i) => i === 0 || rt[i - 1] <= v), "ascending runtimes");
  await ctx.close();
});

run();
