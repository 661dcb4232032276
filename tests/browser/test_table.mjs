// The application page's runs table sorts and paginates through its links
// (no script needed), and the filter form submits itself when a select
// changes (the small script) with the Apply button as the fallback.
import { test, run, watchedPage, assert, screenshot } from "./lib.mjs";

const APP = "browser-paging";

// A runtime cell in its readable unit ("500 ms", "1.5 s", "215 µs") in seconds.
function seconds(text) {
  const m = /^(-?[0-9.]+) (ns|µs|ms|s)$/.exec(text);
  if (!m) return NaN;
  return Number(m[1]) * { ns: 1e-9, "µs": 1e-6, ms: 1e-3, s: 1 }[m[2]];
}

async function column(page, index) {
  return page.$$eval(`#runs-table tbody tr td:nth-child(${index})`,
    (tds) => tds.map((td) => td.textContent.trim()));
}

test("sort by clicking headers and page with the pager", async ({ server, browser }) => {
  const runs = [];
  for (let i = 0; i < 120; i++)
    runs.push({ application: APP, executable: "p.x", system: i % 2 ? "sys-a" : "sys-b",
                nprocs: 1 + (i % 8), runtime: ((i * 37) % 120) + 0.5, inputs: { N: 100 } });
  const up = await server.api("POST", "/api/v1/runs", { runs });
  assert(up.status === 201, `upload ${up.status}`);

  const page = await watchedPage(browser);
  await page.goto(`${server.base}/applications/${APP}`);
  let ids = (await column(page, 1)).map(Number);
  assert(ids.length === 50, `first page has ${ids.length} rows`);
  assert(ids.every((v, i) => i === 0 || ids[i - 1] > v), "newest first by default");
  assert((await page.locator("#runs-summary").innerText()).includes("page 1 of 3"), "summary");

  // Runtime header: ascending, then descending on a second click.
  await page.locator("th a[data-sort=runtime]").click();
  await page.waitForURL(/sort=runtime/);
  let rt = (await column(page, 6)).map(seconds);
  assert(rt.every((v, i) => i === 0 || rt[i - 1] <= v), `ascending runtimes ${rt.slice(0, 5)}`);
  assert(rt[0] === 0.5, `smallest runtime first (${rt[0]})`);
  assert(await page.locator("th[aria-sort=ascending] a[data-sort=runtime]").count() === 1,
    "aria-sort marks the column");
  await page.locator("th a[data-sort=runtime]").click();
  await page.waitForURL(/dir=desc/);
  rt = (await column(page, 6)).map(seconds);
  assert(rt.every((v, i) => i === 0 || rt[i - 1] >= v), "descending runtimes");
  assert(rt[0] === 119.5, `largest runtime first (${rt[0]})`);

  // Next page keeps the order; last page has the remaining 20 rows.
  const first = await column(page, 1);
  await page.locator("a[rel=next]").click();
  await page.waitForURL(/page=2/);
  assert((await page.locator("#runs-summary").innerText()).includes("page 2 of 3"), "page 2");
  const second = await column(page, 1);
  assert(second.every((id) => !first.includes(id)), "page 2 shows other runs");
  const rt2 = (await column(page, 6)).map(seconds);
  assert(rt2[0] <= rt[rt.length - 1], "page 2 continues the order");
  await page.locator("a[rel=last]").click();
  await page.waitForURL(/page=3/);
  assert((await column(page, 1)).length === 20, "last page has 20 rows");
  await page.locator("a[rel=first]").click();
  await page.waitForURL((u) => !u.search.includes("page="));

  // Processors header sorts by nprocs.
  await page.locator("th a[data-sort=nprocs]").click();
  const np = (await column(page, 4)).map(Number);
  assert(np.every((v, i) => i === 0 || np[i - 1] <= v) && np[0] === 1, "nprocs ascending");
  await screenshot(page, "table-sorted-1280");
  page.assertClean("table");
  await page.context().close();
});

test("filter form: auto-submit with script, Apply without", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(`${server.base}/applications/${APP}`);
  await page.selectOption("#f-sys", "sys-a");
  await page.waitForURL(/system=sys-a/);
  assert((await page.locator("#runs-summary").innerText()).startsWith("60 runs"), "60 on sys-a");
  const systems = new Set(await column(page, 3));
  assert(systems.size === 1 && systems.has("sys-a"), `only sys-a: ${[...systems]}`);
  page.assertClean("filter with script");
  await page.context().close();

  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const bare = await ctx.newPage();
  await bare.goto(`${server.base}/applications/${APP}`);
  await bare.selectOption("#f-sys", "sys-b");
  assert(!bare.url().includes("system="), "no script: nothing happens on change");
  await bare.locator("#runs-filters button[type=submit]").click();
  await bare.waitForURL(/system=sys-b/);
  await bare.locator("th a[data-sort=runtime]").click();
  await bare.waitForURL(/sort=runtime/);
  assert(bare.url().includes("system=sys-b"), "sorting keeps the filter");
  await ctx.close();
});

run();
