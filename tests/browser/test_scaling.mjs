// SPEC §18 where people look: the application page's "Scaling at …" section
// (the demo's NAS BT, kernels with exact laws, and a real Extra-P file
// imported through the API), the target picker, and the saved-model page's
// prediction with its extrapolation and warning — at desktop and phone
// width, without console errors, sideways overflow or table cells squeezed
// narrower than their words; screenshots saved.
import { readFileSync } from "node:fs";
import { test, run, watchedPage, screenshot, assert, assertNoHorizontalOverflow } from "./lib.mjs";

const enc = encodeURIComponent;
// The text as read (the page keeps numbers and units together with no-break spaces).
const text = async (page, sel) => (await page.locator(sel).first().innerText()).replace(/\u00a0/g, " ");
const EXTRAP = new URL("../../../shared/corpus/imports/extrap-text/one_parameter_5.txt",
                       import.meta.url);

async function setup(server) {
  const runs = [];
  for (const p of [2, 4, 8, 16, 32, 64])
    runs.push({ application: "laws", executable: "e", system: "s", nprocs: p,
                inputs: { N: 1000 }, runtime: 100 / p + 1 + 0.05 * p + Math.log2(p),
                // a law with long coefficients: on a phone its column must not be squeezed
                metrics: { cache_misses: 0.000123457 + 1234567.89 * p * Math.log2(p) },
                kernels: [{ name: "solve", time: 100 / p + 1 }, { name: "exchange", time: 0.05 * p },
                          { name: "reduce", time: Math.log2(p) }] });
  // a second problem size, at four process counts: a slice the picker offers
  for (const p of [2, 4, 8, 16])
    runs.push({ application: "laws", executable: "e", system: "s", nprocs: p,
                inputs: { N: 2000 }, runtime: 400 / p + 1 + 0.1 * p,
                kernels: [{ name: "solve", time: 400 / p + 1 }, { name: "exchange", time: 0.1 * p }] });
  let res = await server.api("POST", "/api/v1/runs", { runs });
  assert(res.status === 201, "upload: " + JSON.stringify(res.body));
  let extrap = false;
  try {
    const data = readFileSync(EXTRAP);
    const r = await fetch(server.base + "/api/v1/import?format=extrap-text&filename=one_parameter_5.txt",
      { method: "POST", body: data, headers: { "Authorization": "Bearer " + server.token } });
    assert(r.status === 201 || r.status === 200, "import: " + await r.text());
    extrap = true;
  } catch (e) {
    if (e.code !== "ENOENT") throw e; // the shared corpus is not everywhere
  }
  res = await server.api("POST", "/api/v1/fit", { application: "laws", system: "s", x: "nprocs",
    fixed: { N: 1000 }, y: "kernel:exchange", graph: "auto", save: true });
  assert(res.status === 201, "save: " + JSON.stringify(res.body));
  return { model: res.body.id, extrap };
}

test("Scaling at … on the application page, desktop and phone", async ({ server, browser }) => {
  const { model, extrap } = await setup(server);
  const pages = [
    ["scaling-bt", "/applications/" + enc("NAS BT (example)") + "#scaling-at"],
    ["scaling-laws", "/applications/laws#scaling-at"],
    ["model-predict-far", `/models/${model}?nprocs=4096#predict`],
  ];
  if (extrap) pages.push(["scaling-extrap", "/applications/one_parameter_5?x=x#scaling-at"]);
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const page = await watchedPage(browser, width, height);
    for (const [name, path] of pages) {
      const res = await page.goto(server.base + path, { waitUntil: "networkidle" });
      assert(res.status() === 200, `${path}: HTTP ${res.status()}`);
      await assertNoHorizontalOverflow(page, `${path} at ${width}px`);
      await screenshot(page, `${name}-${width}`);
      page.assertClean(`${path} at ${width}px`);
    }
    await page.context().close();
  }
});

test("the section reads as the API answers", async ({ server, browser }) => {
  const page = await watchedPage(browser, 1280, 900);
  await page.goto(server.base + "/applications/laws", { waitUntil: "networkidle" });
  const h = await text(page, "#scaling-at");
  assert(h === "Scaling at nprocs = 256", h);
  const head = await text(page, "#scaling-headline");
  assert(head.includes("the bottleneck is exchange: 57.7 % of the modelled runtime"), head);
  const worse = await text(page, "#scaling-worse");
  assert(worse.includes("exchange (27.2 % → 57.7 %)") && !worse.includes("solve"), worse);
  // the bottleneck row is first and carries its badge
  const first = await text(page, "section.scaling tbody tr");
  assert(first.startsWith("exchange") && first.includes("bottleneck"), first);
  // the picker: a new target, the page and the API agree
  await page.fill("#s-target", "1024");
  await Promise.all([page.waitForNavigation(), page.click("section.scaling button[type=submit]")]);
  assert(page.url().includes("target=1024"), page.url());
  const h2 = await text(page, "#scaling-at");
  assert(h2 === "Scaling at nprocs = 1024", h2);
  const api = await server.api("GET", "/api/v1/applications/laws/scaling?target=1024&input.N=1000");
  const share = (100 * api.body.kernels[0].share_target).toFixed(1);
  const head2 = await text(page, "#scaling-headline");
  assert(head2.includes(`exchange: ${share} %`), `${head2} vs ${share}`);
  await screenshot(page, "scaling-laws-target-1024");
  page.assertClean("picker");
  await page.context().close();
});

test("the picker chooses the slice, desktop and phone", async ({ server, browser }) => {
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const page = await watchedPage(browser, width, height);
    await page.goto(server.base + "/applications/laws#scaling-at", { waitUntil: "networkidle" });
    let sel = await text(page, "#scaling-selection");
    assert(sel.includes("N = 1000, modelled over nprocs") && sel.includes("6 values"), sel);
    assert(await page.inputValue("select[name='input.N']") === "1000", "N shown");
    await page.selectOption("select[name='input.N']", "2000");
    await Promise.all([page.waitForNavigation(), page.click("section.scaling button[type=submit]")]);
    assert(page.url().includes("input.N=2000"), page.url());
    sel = await text(page, "#scaling-selection");
    assert(sel.includes("N = 2000, modelled over nprocs") && sel.includes("4 values"), sel);
    const api = await server.api("GET", "/api/v1/applications/laws/scaling?input.N=2000");
    const bn = await text(page, "#bottleneck");
    assert(bn === api.body.bottleneck, `bottleneck ${bn} vs ${JSON.stringify(api.body).slice(0, 300)}`);
    assert(await page.inputValue("select[name='input.N']") === "2000", "N kept");
    await assertNoHorizontalOverflow(page, `slice at ${width}px`);
    await screenshot(page, `scaling-slice-${width}`);
    page.assertClean(`slice at ${width}px`);
    await page.context().close();
  }
});

test("a saved model's prediction says how far it reaches", async ({ server, browser }) => {
  const list = await server.api("GET", "/api/v1/models");
  const id = list.body.models.find((m) => m.application === "laws").id;
  const api = await server.api("GET", `/api/v1/models/${id}/predict?nprocs=4096`);
  const page = await watchedPage(browser, 390, 844);
  await page.goto(server.base + `/models/${id}`, { waitUntil: "networkidle" });
  await page.fill("input[name=nprocs]", "4096");
  await Promise.all([page.waitForNavigation(), page.click("#predict ~ form button[type=submit], form[action$='#predict'] button")]);
  const reach = await text(page, "#prediction-extrapolation");
  assert(reach === `Extrapolated ${api.body.extrapolation} doublings outside the measured range.`, reach);
  if (api.body.warning) {
    const w = await text(page, "#prediction-warning");
    assert(w === "Warning: " + api.body.warning, w);
  }
  await screenshot(page, "model-predict-reach-390");
  page.assertClean("model predict");
  await page.context().close();
});

run();
