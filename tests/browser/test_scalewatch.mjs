// SPEC §17 in the real browser: a scaling-law watch's alert (a commit whose
// law over nprocs adds 0.05·p to main's 100/p + 1) on the alerts page and on
// the history page of the run that raised it, with the target, the ratio and
// both laws, at 1280 and 390 px with no console errors and no sideways
// scrolling; screenshots in build/artifacts/browser/scalewatch-*.png (on the
// phone also with the alerts table scrolled sideways to the note).
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow }
  from "./lib.mjs";

const APP = "browser-scaling";
const PS = [64, 32, 16, 8, 4, 2];
const noise = (i) => 1 + 0.003 * Math.sin(i * 1.7);
const base = (p) => 100 / p + 1;
const worse = (p) => 100 / p + 1 + 0.05 * p;
let alert = null;

test("setup: a scaling watch, main's runs, then a commit that scales worse",
  async ({ server }) => {
    const w = await server.api("POST", "/api/v1/watches", {
      application: APP, system: "s-sys", y: "runtime",
      detector: { scaling: { x: "nprocs", target: 256, baseline: "branch:main" } } });
    assert(w.status === 201, `watch ${w.status} ${JSON.stringify(w.body)}`);
    const runs = [];
    PS.forEach((p, i) => {
      for (const r of [0, 1])
        runs.push({ application: APP, executable: "s.x", system: "s-sys", nprocs: p,
                    runtime: base(p) * noise(2 * i + r), commit: "main1", branch: "main" });
    });
    let up = await server.api("POST", "/api/v1/runs", { runs });
    assert(up.status === 201, `baseline upload ${up.status}`);
    const bad = PS.map((p, i) => ({ application: APP, executable: "s.x", system: "s-sys",
                                   nprocs: p, runtime: worse(p) * noise(i + 5),
                                   commit: "slow1", branch: "feature" }));
    up = await server.api("POST", "/api/v1/runs", { runs: bad });
    assert(up.status === 201 && up.body.alerts.length === 1,
      `commit upload ${up.status} ${JSON.stringify(up.body.alerts)}`);
    alert = up.body.alerts[0];
    assert(alert.kind === "scaling" && alert.target === 256, JSON.stringify(alert));
  });

test("the alerts page and the history page show the law change", async ({ server, browser }) => {
  const history = `/history?application=${APP}&executable=s.x&system=s-sys` +
                  `&nprocs=${alert.nprocs}&y=runtime`;
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    for (const [where, path] of [["alerts", "/alerts"], ["history", history]]) {
      await page.goto(`${server.base}${path}`, { waitUntil: "networkidle" });
      const note = page.locator(`#alert-${alert.id} .scaling-law`);
      assert(await note.count() === 1, `${where}: the alert's law note`);
      const text = await note.textContent();
      assert(text.includes("Scaling law changed") && text.includes("at nprocs = 256"),
        `${where}: ${text}`);
      assert(text.includes(alert.formula) && text.includes(alert.baseline_formula),
        `${where}: both laws in ${text}`);
      const ratio = Number(alert.ratio_at_target.toPrecision(3));
      assert(text.includes(`${ratio}× the baseline`), `${where}: ratio ${ratio} in ${text}`);
      // the alert's row at the top (the page scrolled, not the table's box)
      await page.evaluate((id) => {
        const row = document.getElementById(id);
        window.scrollTo(0, row.getBoundingClientRect().top + window.scrollY - 8);
      }, `alert-${alert.id}`);
      await assertNoHorizontalOverflow(page, `${where} at ${width}`);
      await screenshot(page, `scalewatch-${where}-${width}`);
      if (width < 600) { // the table's box scrolled sideways to the note
        await note.scrollIntoViewIfNeeded();
        await screenshot(page, `scalewatch-${where}-${width}-note`);
      }
    }
    page.assertClean(`scalewatch ${width}`);
    await page.context().close();
  }
});

await run();
