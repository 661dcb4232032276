// SPEC §17 in the real browser: a configuration's history with a 15 % step
// after 20 runs shows the change point GET /api/v1/changes finds, as the
// chart's dashed line and in the list with its culprit range, at 1280 and
// 390 px with no console errors and no sideways scrolling; screenshots in
// build/artifacts/browser/changes-*.png.
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow }
  from "./lib.mjs";

const APP = "browser-changes";
const CONF = { application: APP, executable: "c.x", system: "c-sys", nprocs: 4,
               inputs: { N: 100 } };
const HISTORY = `/history?application=${APP}&executable=c.x&system=c-sys&nprocs=4` +
                "&input.N=100&y=runtime";
const noise = (i) => 1 + 0.025 * Math.sin(i * 1.7);
const pad = (i) => String(i).padStart(3, "0");

test("setup: 20 runs, then 15 runs 15 % slower", async ({ server }) => {
  const runs = [];
  for (let i = 0; i < 35; i++)
    runs.push({ ...CONF, runtime: (i < 20 ? 10 : 11.5) * noise(i), commit: `c${pad(i)}`,
                started_at: `2026-10-${String(1 + Math.floor(i / 2)).padStart(2, "0")}T` +
                            `${String(8 + (i % 2)).padStart(2, "0")}:00:00Z` });
  const up = await server.api("POST", "/api/v1/runs", { runs });
  assert(up.status === 201, `upload ${up.status}`);
  const c = await server.api("GET", `/api/v1/changes?application=${APP}`);
  assert(c.status === 200 && c.body.changes.length === 1, JSON.stringify(c.body));
  assert(c.body.changes[0].from_commit === "c019" && c.body.changes[0].to_commit === "c020",
    JSON.stringify(c.body));
});

test("the history page marks the change with its culprit range", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}${HISTORY}`, { waitUntil: "networkidle" });
    // the wide and the narrow chart are both in the page, one shown
    const shown = page.locator("svg g.change:visible");
    assert(await shown.count() === 1, `one change line shown (${await shown.count()})`);
    const label = await shown.textContent();
    assert(label.includes("shift at c020"), `chart label ${label}`);
    const items = await page.locator("ul.changes li").allTextContents();
    assert(items.length === 1 && items[0].includes("c019..c020"), `list ${items}`);
    await assertNoHorizontalOverflow(page, `changes at ${width}`);
    await screenshot(page, `changes-history-${width}`);
    page.assertClean(`changes ${width}`);
    await page.context().close();
  }
});

await run();
