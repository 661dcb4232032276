// Issue 14 in the real browser: a configuration's history with a watch, the
// alert a slow run raises, its triage from the alerts page (token + CSRF, no
// script needed), and a comparison of two branches — each page checked at
// 1280 and 390 px with no console errors and no sideways scrolling, with
// screenshots in build/artifacts/browser/history-*.png.
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow, clickThrough }
  from "./lib.mjs";

const APP = "browser-history";
const CONF = { application: APP, executable: "h.x", system: "h-sys", nprocs: 8,
               inputs: { N: 2000 } };
const HISTORY = `/history?application=${APP}&executable=h.x&system=h-sys&nprocs=8` +
                "&input.N=2000&y=runtime";
let alertId = 0;

test("setup: steady runs on main, a watch, a slow run on a branch", async ({ server }) => {
  const runs = [];
  for (let d = 1; d <= 12; d++)
    runs.push({ ...CONF, runtime: 20 + (d % 3) * 0.2, commit: `m${d}`, branch: "main",
                started_at: `2026-11-${String(d).padStart(2, "0")}T08:00:00Z` });
  const up = await server.api("POST", "/api/v1/runs", { runs });
  assert(up.status === 201, `upload ${up.status}`);
  const w = await server.api("POST", "/api/v1/watches", { application: APP, system: "h-sys",
    y: "runtime", detector: { test: "ttest", threshold: 0.01, window: 12 } });
  assert(w.status === 201, `watch ${w.status}`);
  const slow = [];
  for (let d = 13; d <= 15; d++)
    slow.push({ ...CONF, runtime: 27 + (d % 2) * 0.3, commit: `f${d}`, branch: "feature",
                started_at: `2026-11-${d}T08:00:00Z` });
  const s = await server.api("POST", "/api/v1/runs", { runs: slow });
  assert(s.status === 201, `slow upload ${s.status}`);
  assert(s.body.alerts.length >= 1, "the slow runs raise an alert");
  alertId = s.body.alerts[0].id;
});

test("the application page leads to the history chart", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/applications/${APP}`, { waitUntil: "networkidle" });
    await page.locator("a[href^='/history?']").first().click();
    await page.waitForLoadState("networkidle");
    assert(page.url().endsWith(HISTORY.slice(HISTORY.indexOf("?"))), `history url ${page.url()}`);
    assert(await page.locator("svg").count() >= 1, "a chart");
    // every point names its commit; the slow ones are among them
    const titles = await page.locator("svg title").allTextContents();
    assert(titles.some((t) => t.includes("f13")) && titles.some((t) => t.includes("m1")),
      "points titled with their commits");
    await assertNoHorizontalOverflow(page, `history at ${width}`);
    await screenshot(page, `history-series-${width}`);
    page.assertClean(`history ${width}`);
    await page.context().close();
  }
});

test("an alert is triaged from the alerts page", async ({ server, browser }) => {
  const page = await watchedPage(browser, 1280, 900);
  await page.goto(`${server.base}/alerts?state=open`, { waitUntil: "networkidle" });
  const row = page.locator(`#alert-${alertId}`);
  assert(await row.count() === 1, "the alert is listed");
  await screenshot(page, "history-alerts-open");
  // a wrong token is refused and changes nothing
  await row.locator("select[name=state]").selectOption("acknowledged");
  await row.locator("input[name=token]").fill("not-a-token");
  page.expectStatus.set(`${server.base}/alerts/${alertId}`, 401);
  await clickThrough(page, () => row.locator("button").click());
  let a = await server.api("GET", "/api/v1/alerts?state=open");
  assert(a.body.alerts.some((x) => x.id === alertId), "still open after a wrong token");
  // the right token moves it and lands back on the list
  await page.goto(`${server.base}/alerts`, { waitUntil: "networkidle" });
  const row2 = page.locator(`#alert-${alertId}`);
  await row2.locator("select[name=state]").selectOption("false_positive");
  await row2.locator("input[name=token]").fill(server.token);
  page.expectStatus.set(`${server.base}/alerts/${alertId}`, 303); // then back to the list
  await Promise.all([page.waitForURL(`${server.base}/alerts`), row2.locator("button").click()]);
  a = await server.api("GET", "/api/v1/alerts?state=false_positive");
  assert(a.body.alerts.some((x) => x.id === alertId), "triaged as a false positive");
  await screenshot(page, "history-alerts-triaged");
  page.assertClean("alerts");
  await page.context().close();
});

test("the alerts page shows the groups first, triaged together", async ({ server, browser }) => {
  // SPEC §17: one commit slows two configurations; its two alerts are one group
  const CONF16 = { ...CONF, nprocs: 16 };
  const runs = [];
  for (let d = 1; d <= 12; d++)
    runs.push({ ...CONF16, runtime: 11 + (d % 3) * 0.1, commit: `m${d}`, branch: "main",
                started_at: `2026-11-${String(d).padStart(2, "0")}T09:00:00Z` });
  assert((await server.api("POST", "/api/v1/runs", { runs })).status === 201, "16-proc runs");
  const bad = [];
  for (const [c, rt] of [[CONF, 40], [CONF16, 22]])
    for (let k = 0; k < 3; k++)
      bad.push({ ...c, runtime: rt + k * 0.1, commit: "g1bad", branch: "feature",
                 started_at: `2026-11-20T0${k}:00:00Z` });
  const s = await server.api("POST", "/api/v1/runs", { runs: bad });
  assert(s.status === 201 && s.body.alerts.length >= 2, `g1bad raises alerts ${s.status}`);
  const groups = await server.api("GET", "/api/v1/alert-groups?state=open");
  const g = groups.body.groups.find((x) => x.commit === "g1bad");
  assert(g && g.configurations === 2, `one group over two configurations ${JSON.stringify(g)}`);
  for (const width of [390, 1280]) { // the wide one triages, last
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/alerts?state=open`, { waitUntil: "networkidle" });
    const row = page.locator(`#group-${g.id}`);
    assert(await row.count() === 1, "the group is listed");
    const first = await page.locator("h2").first().textContent();
    assert(first === "By commit", `groups come first, not ${first}`);
    const wide = await page.evaluate(() => [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 &&
                     !e.closest(".table-wrap table"))
      .slice(0, 5).map((e) => e.tagName + "." + e.className + "#" + e.id));
    assert(wide.length === 0, `wider than the window: ${wide.join(" ")}`);
    await assertNoHorizontalOverflow(page, `alerts with groups at ${width}`);
    await screenshot(page, `history-alert-groups-${width}`);
    if (width === 1280) {
      await row.locator("select[name=state]").selectOption("acknowledged");
      await row.locator("input[name=token]").fill(server.token);
      page.expectStatus.set(`${server.base}/alert-groups/${g.id}`, 303);
      await Promise.all([page.waitForURL(`${server.base}/alerts`),
                         row.locator("button").click()]);
      const a = await server.api("GET", "/api/v1/alerts?state=acknowledged");
      for (const id of g.alerts)
        assert(a.body.alerts.some((x) => x.id === id), `alert ${id} acknowledged`);
    }
    page.assertClean(`alerts groups ${width}`);
    await page.context().close();
  }
});

test("two branches compared side by side", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/compare?a=branch:main&b=branch:feature&application=${APP}`,
      { waitUntil: "networkidle" });
    const text = await page.locator("main").innerText();
    assert(text.includes("branch:feature"), "the sides are named");
    assert(await page.locator("svg").count() >= 1, "the ratio chart");
    await assertNoHorizontalOverflow(page, `compare at ${width}`);
    await screenshot(page, `history-compare-${width}`);
    page.assertClean(`compare ${width}`);
    await page.context().close();
  }
});

await run();
