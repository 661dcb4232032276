// Every page of the dashboard renders in real Chromium without console
// errors or failed requests, at 1280 px and at phone width (390 px) with no
// sideways overflow of the body; screenshots of each are saved as artifacts.
import { test, run, watchedPage, screenshot, assert, assertNoHorizontalOverflow,
         assertReadablePlots, assertInputsTyped, assertSelectsWhole } from "./lib.mjs";

const enc = encodeURIComponent;

// A saved model, made the way users make one: a fit of the demo data saved
// over the API (the model page then shows its plot and prediction form).
async function saveModel(server) {
  const res = await server.api("POST", "/api/v1/fit", {
    application: "matmul (example)", executable: "matmul_sgi",
    system: "SGI Origin2000 (example)", x: "N", fixed: { nprocs: 8 }, graph: "cubic",
    predict: [1200], save: true });
  assert(res.status === 201, "saving a model: " + JSON.stringify(res.body));
  return res.body.id;
}

test("every page, desktop and phone", async ({ server, browser }) => {
  const mid = await saveModel(server);
  const runs = await server.api("GET", "/api/v1/runs?limit=1&application=" + enc("NAS BT (example)"));
  const rid = runs.body.runs[0].id;
  const pages = [
    ["overview", "/"],
    ["applications", "/applications"],
    ["app-matmul", "/applications/" + enc("matmul (example)")],
    ["app-bt", "/applications/" + enc("NAS BT (example)")],
    ["app-sorted", "/applications/" + enc("matmul (example)") + "?sort=runtime&dir=desc&page=2"],
    ["run", `/runs/${rid}`],
    ["systems", "/systems"],
    ["system-sp2", "/systems/" + enc("IBM SP2 (example)")],
    ["system-sgi", "/systems/" + enc("SGI Origin2000 (example)")],
    ["models", "/models"],
    ["model", `/models/${mid}`],
    ["upload", "/upload"],
    ["not-found", "/no/such/page", 404],
  ];
  for (const [width, suffix] of [[1280, "1280"], [390, "390"]]) {
    const page = await watchedPage(browser, width, width === 390 ? 844 : 900);
    for (const [name, path, status] of pages) {
      const url = server.base + path;
      if (status) page.expectStatus.set(url, status);
      const res = await page.goto(url, { waitUntil: "networkidle" });
      assert(res.status() === (status || 200), `${path}: HTTP ${res.status()}`);
      assert((await page.title()).endsWith("· Prophecy"), `${path}: title ${await page.title()}`);
      // the eight sections (Compare since SPEC §17); the sign-in link beside them
      assert(await page.locator("nav[aria-label=Main] li:not(.session) a").count() === 8,
        `${path}: navigation`);
      // the stylesheet applied (the header is dark) and plots fit their box
      const bg = await page.locator("header.top").evaluate((e) => getComputedStyle(e).backgroundColor);
      assert(bg === "rgb(23, 32, 43)", `${path}: stylesheet not applied (${bg})`);
      const wide = await page.$$eval("figure.plot svg, figure.plot img", (els) =>
        els.filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).length);
      assert(wide === 0, `${path}: ${wide} plots wider than the window`);
      await assertNoHorizontalOverflow(page, `${path} at ${width}px`);
      await assertInputsTyped(page, path);
      if (width === 1280) await assertSelectsWhole(page, path);
      await screenshot(page, `${name}-${suffix}`);
      page.assertClean(`${path} at ${width}px`);
    }
    await page.context().close();
  }
});

// Every kind of chart the site draws, on the pages that show it, read on a
// phone: none of them a desktop drawing shrunk to half (text at 5-6 px).
test("every chart's text is readable on a phone", async ({ server, browser }) => {
  const MATMUL = "matmul (example)", SGI = "SGI Origin2000 (example)",
        SP2 = "IBM SP2 (example)", TPL = "matmul master/slave";
  const fit = await saveModel(server);
  const param = await server.api("POST", "/api/v1/parameterize", { template: TPL, system: SP2,
    vars: { N: 1000, P: [2, 64], L: 1024 }, save: true });
  assert(param.status === 201, `saving a parameterization ${param.status}`);
  const conf = { application: "phone-charts", executable: "p.x", system: "p-sys", nprocs: 8 };
  const runs = [];
  for (let d = 1; d <= 8; d++)
    runs.push({ ...conf, runtime: d > 5 ? 27 : 20 + (d % 2) * 0.2, commit: `c${d}`,
                branch: d > 5 ? "feature" : "main",
                started_at: `2026-11-0${d}T08:00:00Z`,
                kernels: [{ name: "solve", time: d > 5 ? 22 : 15 }, { name: "halo", time: 4 }] });
  assert((await server.api("POST", "/api/v1/runs", { runs })).status === 201, "runs uploaded");
  const bt = await server.api("GET", "/api/v1/runs?limit=1&application=" + enc("NAS BT (example)"));
  const q = (o) => new URLSearchParams(o).toString();
  const pv = (vars) => Object.fromEntries(Object.entries(vars).flatMap(([v, x]) =>
    Array.isArray(x) ? [[`mode.${v}`, "range"], [`min.${v}`, x[0]], [`max.${v}`, x[1]]]
                     : [[`mode.${v}`, "fixed"], [`v.${v}`, x]]));
  const pages = [ // [path, charts on it at least]
    ["/applications/" + enc(MATMUL), 4],
    ["/applications/" + enc("NAS BT (example)"), 5],
    [`/runs/${bt.body.runs[0].id}`, 1],
    ["/systems/" + enc(SP2), 2],
    [`/models/${fit}`, 1],
    [`/models/${param.body.id}`, 1],
    ["/history?" + q({ ...conf, y: "runtime" }), 1],
    ["/compare?" + q({ application: conf.application, a: "branch:main", b: "branch:feature" }), 1],
    ["/model/fit?" + q({ application: MATMUL, executable: "matmul_sgi", system: SGI,
      graph: "poly3", x: "N", "fix.nprocs": "8", predict: "1200", step: "result" }), 1],
    ["/model/fit?" + q({ application: MATMUL, executable: "matmul_sgi", system: SGI,
      graph: "auto", x: "N", x2: "nprocs", "fix.L": "1024", predict: "1200, 16",
      step: "result" }), 1],
    ["/model/parameterize?" + q({ application: MATMUL, template: TPL, system: SP2,
      ...pv({ N: 1000, P: 8, L: 1024 }), step: "result" }), 1],
    ["/model/parameterize?" + q({ application: MATMUL, template: TPL, system: SP2,
      ...pv({ N: [100, 2000], P: [2, 64], L: 1024 }), step: "result" }), 1],
    ["/model/couple?predict=64&step=result", 2],
  ];
  const page = await watchedPage(browser, 390, 844);
  for (const [path, want] of pages) {
    const res = await page.goto(server.base + path, { waitUntil: "networkidle" });
    assert(res.status() === 200, `${path}: HTTP ${res.status()}`);
    const charts = await assertReadablePlots(page, `${path} at 390px`);
    assert(charts >= want, `${path}: ${charts} charts shown, expected ${want}`);
    await assertInputsTyped(page, path);
    page.assertClean(`${path} at 390px`);
  }
  await screenshot(page, "charts-couple-390");
  await page.context().close();
});

test("the model page answers the stored figures and links", async ({ server, browser }) => {
  await saveModel(server);
  const page = await watchedPage(browser);
  await page.goto(server.base + "/models");
  await page.locator("table a[href^='/models/']").first().click();
  assert(/\/models\/\d+$/.test(page.url()), page.url());
  const text = await page.locator("main").innerText();
  assert(/y = [-0-9.e]+ [+-] [0-9.e-]+·N/.test(text) && text.includes("N^3"), "formula shown");
  assert(text.includes("Predictions") && text.includes("1200"), "stored prediction shown");
  const json = await page.locator("a[href^='/api/v1/models/']").getAttribute("href");
  const res = await page.request.get(server.base + json);
  assert(res.status() === 200 && (await res.json()).method === "fit", "JSON link works");
  page.assertClean("model page");
  await page.context().close();
});

test("long names without spaces do not widen a phone's page", async ({ server, browser }) => {
  const app = "A".repeat(250), sys = "S".repeat(250), exe = "E".repeat(250);
  const up = await server.api("POST", "/api/v1/runs", {
    runs: [2, 4].map((p) => ({ application: app, executable: exe, system: sys, nprocs: p,
                               runtime: 1 / p, inputs: { ["N".repeat(200)]: 1 },
                               kernels: [{ name: "K".repeat(250), time: 0.5 / p }] })),
  });
  assert(up.status === 201, `upload ${up.status}`);
  const page = await watchedPage(browser, 390, 844);
  for (const path of ["/", "/applications", "/applications/" + app, "/systems/" + sys,
                      `/runs/${up.body.ids[0]}`]) {
    // networkidle: leaving a page while its icon still loads would abort that
    // request and be reported as a failed request of the next page
    await page.goto(server.base + path, { waitUntil: "networkidle" });
    await assertNoHorizontalOverflow(page, `${path.slice(0, 40)}… at 390px`);
    page.assertClean(path.slice(0, 40));
  }
  await screenshot(page, "long-names-390");
  await page.context().close();
});

run();
