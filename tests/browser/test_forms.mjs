// The three modeling forms in a real browser, walked as a user would: pick
// from the lists (the application select refreshes the lists that depend on
// it), type the values, click through the steps to the result, which must
// show a visible SVG plot and the prediction the JSON API gives for the same
// request; then save it with a token and land on the saved model's page.
// Also: a form works without JavaScript, bad input is shown next to its field
// and stores nothing, and the pages fit a phone's width. Screenshots go to
// the artifacts directory like the other browser tests.
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow,
         assertSelectsWhole } from "./lib.mjs";

const MATMUL = "matmul (example)", BT = "NAS BT (example)";
const SGI = "SGI Origin2000 (example)", SP2 = "IBM SP2 (example)";

// Selecting in an auto-submitting select reloads the step with the lists
// refreshed.
async function pick(page, name, value, reloads) {
  const sel = page.locator(`select[name="${name}"]`);
  if (reloads) {
    const before = page.url();
    await sel.selectOption(value);
    await page.waitForURL((u) => u.href !== before);
    await page.waitForLoadState("networkidle");
  } else {
    await sel.selectOption(value);
  }
}

async function next(page, heading) {
  await page.locator("#next").click();
  await page.waitForLoadState("networkidle");
  const h = await page.locator("main").innerText();
  assert(h.includes(heading), `expected "${heading}", got: ${h.slice(0, 400)}`);
}

async function options(page, name) {
  return page.locator(`select[name="${name}"] option`).evaluateAll((os) => os.map((o) => o.value));
}

async function plotVisible(page, what) {
  const svgs = page.locator("figure.plot svg");
  assert(await svgs.count() >= 1, `${what}: no plot`);
  const box = await svgs.first().boundingBox();
  assert(await svgs.first().isVisible() && box && box.width > 200 && box.height > 100,
    `${what}: plot not visible (${JSON.stringify(box)})`);
  // drawn, not empty: the curve or bars are there
  assert(await svgs.first().locator("path, rect").count() > 3, `${what}: empty plot`);
}

// The headline prediction's exact value: data-value (the page shows it in
// readable units, "13.61 ms"), else its text (a parameterized model's value).
async function predictedValue(page) {
  const el = page.locator("#predicted");
  const exact = await el.getAttribute("data-value");
  return Number((exact ?? await el.innerText()).trim());
}

function same10(shown, exact) {
  return Number(exact.toPrecision(10)) === shown;
}

async function saveAndOpen(page, server, method, what) {
  const before = (await server.api("GET", "/api/v1/models")).body.models.length;
  const request = JSON.parse(await page.locator("#request pre").textContent());
  await page.fill("#save-token", server.token);
  await page.locator("#save-button").click();
  await page.waitForURL(/\/models\/\d+$/);
  await page.waitForLoadState("networkidle");
  const id = Number(page.url().match(/\/models\/(\d+)$/)[1]);
  const text = await page.locator("main").innerText();
  assert(text.includes(`Model ${id}`) && text.includes(method), `${what}: model page`);
  const after = (await server.api("GET", "/api/v1/models")).body.models.length;
  assert(after === before + 1, `${what}: ${after - before} models stored`);
  const model = await server.api("GET", `/api/v1/models/${id}`);
  assert(model.body.method === method, `${what}: method ${model.body.method}`);
  assert(JSON.stringify(model.body.request) === JSON.stringify(request),
    `${what}: stored request ${JSON.stringify(model.body.request)}`);
  await screenshot(page, `form-${method}-saved-1280`);
  return id;
}

test("curve fitting in three steps, saved", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/", { waitUntil: "networkidle" });
  await page.locator("nav[aria-label=Main]").getByRole("link", { name: "Model", exact: true }).click();
  await page.waitForURL(/\/model$/);
  await page.waitForLoadState("networkidle");
  await page.locator("a[href='/model/fit']").click();
  await page.waitForURL(/\/model\/fit$/);
  await page.waitForLoadState("networkidle");
  // step 1: choosing the application refreshes the executables and systems
  await pick(page, "application", MATMUL, true);
  assert(JSON.stringify(await options(page, "executable")) ===
         JSON.stringify(["matmul_sgi", "matmul_sp2", ""]), "executables of matmul");
  await pick(page, "executable", "matmul_sp2", true);
  assert(JSON.stringify(await options(page, "system")) === JSON.stringify([SP2]), "systems of sp2");
  await pick(page, "executable", "matmul_sgi", true);
  assert(JSON.stringify(await options(page, "system")) === JSON.stringify([SGI]), "systems of sgi");
  await assertSelectsWhole(page, "fit step 1 at 1280px");
  await screenshot(page, "form-fit-step1-1280");
  await next(page, "Step 2: Graph and axes");
  // step 2: graph type and axes
  await page.selectOption("select[name=graph]", { label: "cubic" });
  await page.selectOption("select[name=x]", "N");
  await page.selectOption("select[name=y]", "runtime");
  await assertSelectsWhole(page, "fit step 2 at 1280px");
  await screenshot(page, "form-fit-step2-1280");
  await next(page, "Step 3: Range and prediction");
  // step 3: fixed values prefilled from the runs; the prediction typed
  assert(await page.locator("select[name='fix.nprocs']").inputValue() === "8", "nprocs 8 prefilled");
  assert(await page.locator("select[name='fix.L']").inputValue() === "1024", "L prefilled");
  await page.selectOption("select[name='fix.nprocs']", "8");
  await page.fill("input[name=predict]", "1200");
  await assertSelectsWhole(page, "fit step 3 at 1280px");
  await screenshot(page, "form-fit-step3-1280");
  await next(page, "Result");
  await plotVisible(page, "fit");
  const shown = await predictedValue(page);
  const api = await server.api("POST", "/api/v1/fit", {
    application: MATMUL, executable: "matmul_sgi", system: SGI, x: "N",
    fixed: { nprocs: 8 }, graph: "cubic", predict: [1200] });
  assert(api.status === 200, "API fit");
  assert(same10(shown, api.body.predictions[0].y), `fit: page ${shown}, API ${api.body.predictions[0].y}`);
  const text = await page.locator("main").innerText();
  assert(text.includes(api.body.model.formula), "the formula is shown");
  assert(text.includes("95 % prediction interval"), "the interval is shown");
  // the permanent link shows the same result; the JSON link the same answer
  const perm = await page.locator("#permalink").getAttribute("href");
  const json = await page.request.get(server.base + await page.locator("#json-link").getAttribute("href"));
  assert(json.status() === 200 && (await json.json()).predictions[0].y === api.body.predictions[0].y,
    "JSON link");
  await screenshot(page, "form-fit-result-1280");
  page.assertClean("fit walk");
  await saveAndOpen(page, server, "fit", "fit");
  await page.goto(server.base + perm, { waitUntil: "networkidle" });
  assert(await predictedValue(page) === shown, "permanent link");
  assert(await page.locator("#measure-next tbody tr").count() >= 2, "measure-next table");
  page.assertClean("fit saved");
  // Far beyond the data (16 times the largest N): the reach, the warning on
  // the page and on the plot, and the measure-next table ranked as
  // POST /api/v1/suggest ranks the same candidates.
  const far = new URL(server.base + perm);
  far.searchParams.set("predict", "16000");
  await page.goto(far.href, { waitUntil: "networkidle" });
  const farReq = { application: MATMUL, executable: "matmul_sgi", system: SGI, x: "N",
    fixed: { nprocs: 8 }, graph: "cubic" };
  const farApi = await server.api("POST", "/api/v1/fit", { ...farReq, predict: [16000] });
  const farPred = farApi.body.predictions[0];
  assert(farPred.extrapolation === 4 && farPred.warning, `API reach ${JSON.stringify(farPred)}`);
  assert(await predictedValue(page) === Number(farPred.y.toPrecision(10)), "far prediction");
  assert((await page.locator("#extrapolation").innerText()).includes("extrapolated 4 doublings"),
    "the reach is shown next to the prediction");
  const warn = await page.locator("#prediction-warning").innerText();
  assert(await page.locator("#prediction-warning").isVisible() && warn.includes(farPred.warning),
    `the warning is shown: ${warn}`);
  const svgText = await page.locator("figure.plot svg").first().textContent();
  assert(svgText.includes("Warning: ") && svgText.includes("4 doublings out"),
    "the plot marks the warning and the reach");
  const rows = await page.locator("#measure-next tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.innerText.trim())));
  assert(rows.length >= 3, `measure-next rows: ${JSON.stringify(rows)}`);
  const xs = rows.map((r) => Number(r[0]));
  assert(xs.includes(16000) && xs.includes(2048) && xs.includes(8192), `candidates ${xs}`);
  const sug = await server.api("POST", "/api/v1/suggest",
    { ...farReq, target: 16000, candidates: [...xs].sort((a, b) => a - b) });
  assert(sug.status === 200, `suggest ${sug.status}`);
  assert(JSON.stringify(sug.body.suggestions.map((s) => s.x)) === JSON.stringify(xs),
    `page order ${xs}, API ${JSON.stringify(sug.body.suggestions)}`);
  sug.body.suggestions.forEach((s, i) =>
    assert(rows[i][1] === `${Math.round(100 * s.narrowing)} %`, `narrowing ${rows[i]} vs ${s.narrowing}`));
  await screenshot(page, "form-fit-warning-1280");
  page.assertClean("fit far");
  await page.context().close();
});

test("curve fitting over two axes: the 3-D surface", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/model/fit", { waitUntil: "networkidle" });
  await pick(page, "application", MATMUL, true);
  await pick(page, "executable", "matmul_sgi", true);
  await next(page, "Step 2: Graph and axes");
  await page.selectOption("select[name=x]", "N");
  assert((await options(page, "x2")).includes("nprocs"), "nprocs offered as the second axis");
  await page.selectOption("select[name=x2]", "nprocs");
  await next(page, "Step 3: Range and prediction");
  // the second axis is not a fixed value; predictions are pairs
  assert(await page.locator("select[name='fix.nprocs']").count() === 0, "nprocs not fixed");
  assert(await page.locator("#predict-pairs").isVisible(), "pairs explained");
  await page.fill("input[name=predict]", "1200, 16");
  await next(page, "Result");
  const text = await page.locator("main").innerText();
  assert(text.includes("runtime over N and nprocs, graph auto"), "summary names both axes");
  assert(text.includes("predict at (N = 1200, nprocs = 16)"), "the summary reads the pair");
  const desc = await page.locator("figure.plot svg desc").first().textContent();
  assert(desc.includes("3-D surface"), `a surface: ${desc}`);
  await plotVisible(page, "fit surface");
  const api = await server.api("POST", "/api/v1/fit", {
    application: MATMUL, executable: "matmul_sgi", system: SGI, x: ["N", "nprocs"],
    fixed: { L: 1024 }, graph: "auto", predict: [[1200, 16]] });
  assert(api.status === 200, `API fit ${api.status} ${JSON.stringify(api.body)}`);
  assert(same10(await predictedValue(page), api.body.predictions[0].y),
    `surface: page ${await predictedValue(page)}, API ${api.body.predictions[0].y}`);
  assert(text.includes("N = 1200, nprocs = 16"), "the prediction names both axes");
  // measure next over both axes, ranked as the API ranks the same pairs
  const rows = await page.locator("#measure-next tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.innerText.trim())));
  assert(rows.length >= 2, `measure-next rows: ${JSON.stringify(rows)}`);
  const pairs = rows.map((r) => r[0].split(",").map(Number));
  const sug = await server.api("POST", "/api/v1/suggest", {
    application: MATMUL, executable: "matmul_sgi", system: SGI, x: ["N", "nprocs"],
    fixed: { L: 1024 }, graph: "auto", target: [1200, 16], candidates: [...pairs].reverse() });
  assert(sug.status === 200, `suggest ${sug.status} ${JSON.stringify(sug.body)}`);
  assert(JSON.stringify(sug.body.suggestions.map((s) => s.x)) === JSON.stringify(pairs),
    `page ${JSON.stringify(pairs)}, API ${JSON.stringify(sug.body.suggestions)}`);
  await assertSelectsWhole(page, "fit-surface at 1280px");
  await screenshot(page, "form-fit-surface-1280");
  page.assertClean("fit surface");
  await page.context().close();
});

test("parameterization in two steps, saved", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/model", { waitUntil: "networkidle" });
  await page.locator("a[href='/model/parameterize']").click();
  await page.waitForURL(/\/model\/parameterize$/);
  await page.waitForLoadState("networkidle");
  await pick(page, "application", MATMUL, false); // the only one with templates
  await pick(page, "template", "matmul master/slave", false);
  await pick(page, "system", SGI, true);
  await pick(page, "system", SP2, true);
  assert(await page.locator("select[name=system]").inputValue() === SP2, "system chosen");
  await assertSelectsWhole(page, "param-step1 at 1280px");
  await screenshot(page, "form-param-step1-1280");
  await next(page, "Step 2: Variables");
  for (const [v, x] of [["N", "1000"], ["P", "8"], ["L", "1024"]]) {
    assert(await page.locator(`select[name='mode.${v}']`).inputValue() === "fixed", `${v} fixed`);
    await page.fill(`input[name='v.${v}']`, x);
  }
  await assertSelectsWhole(page, "param-step2 at 1280px");
  await screenshot(page, "form-param-step2-1280");
  await next(page, "Result");
  await plotVisible(page, "parameterize");
  const shown = await predictedValue(page);
  // the model value in seconds for people, its 10 digits in data-value
  assert(shown === 263.8402286 && (await page.locator("#predicted").innerText()) === "263.8 s",
    `value ${shown}`);
  const api = await server.api("POST", "/api/v1/parameterize", {
    template: "matmul master/slave", system: SP2, vars: { N: 1000, P: 8, L: 1024 } });
  assert(same10(shown, api.body.value), `parameterize: page ${shown}, API ${api.body.value}`);
  const text = await page.locator("main").innerText();
  assert(text.includes("α coefficients") && text.includes("Mean |error|"), "alpha and overlay");
  await screenshot(page, "form-param-result-1280");
  page.assertClean("parameterize walk");
  await saveAndOpen(page, server, "parameterize", "parameterize");
  page.assertClean("parameterize saved"); // no broken plot image on the model page
  await page.context().close();
});

test("kernel coupling in three steps, saved", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/model/couple", { waitUntil: "networkidle" });
  await pick(page, "application", BT, false);
  await pick(page, "system", SP2, false);
  await next(page, "Step 2: Kernels and loop");
  // every kernel of the runs, the loop from the stored couplings
  const loop = ["compute_rhs", "x_solve", "y_solve", "z_solve", "add"];
  for (const [i, k] of loop.entries())
    assert(await page.locator(`select[name='pos.${k}']`).inputValue() === String(i + 1), `${k} in the loop`);
  assert(await page.locator("select[name='pos.initialize']").inputValue() === "", "initialize outside");
  await page.selectOption("select[name='graph.verify']", "auto");
  await assertSelectsWhole(page, "couple-step2 at 1280px");
  await screenshot(page, "form-couple-step2-1280");
  await next(page, "Step 3: Range and prediction");
  await pick(page, "x", "nprocs", false);
  await page.fill("input[name=predict]", "64");
  await assertSelectsWhole(page, "couple-step3 at 1280px");
  await screenshot(page, "form-couple-step3-1280");
  await next(page, "Result");
  await plotVisible(page, "couple");
  assert(await page.locator("figure.plot svg.wide").count() === 2, "the main plot and the breakdown");
  const shown = await predictedValue(page);
  const api = await server.api("POST", "/api/v1/couple", {
    application: BT, system: SP2, x: "nprocs", predict: [64] });
  const p = api.body.predictions[0];
  assert(same10(shown, p.y), `couple: page ${shown}, API ${p.y}`);
  const summed = Number(await page.locator("#summed").getAttribute("data-value"));
  const actual = Number(await page.locator("#actual").getAttribute("data-value"));
  assert(same10(summed, p.summation.y), `summation: page ${summed}, API ${p.summation.y}`);
  assert(same10(actual, p.actual), `actual: page ${actual}, API ${p.actual}`);
  const sum = await page.locator("#summation").innerText();
  assert(/ (ms|s|µs)\b/.test(sum) && !/e[-+]\d/.test(sum), `summation in readable units: ${sum}`);
  await screenshot(page, "form-couple-result-1280");
  page.assertClean("couple walk");
  await saveAndOpen(page, server, "couple", "couple");
  page.assertClean("couple saved");
  await page.context().close();
});

test("without JavaScript the button refreshes the lists", async ({ server, browser }) => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(server.base + "/model/fit", { waitUntil: "networkidle" });
  await page.selectOption("select[name=application]", MATMUL);
  // nothing happens until the button: the executables are still BT's
  assert(JSON.stringify(await options(page, "executable")) === JSON.stringify(["bt.A", ""]), "no script");
  await page.locator("#refresh").click();
  await page.waitForURL(/application=matmul/);
  assert((await options(page, "executable")).includes("matmul_sgi"), "refreshed by the button");
  await next(page, "Step 2: Graph and axes");
  await page.selectOption("select[name=x]", "N");
  await next(page, "Step 3: Range and prediction");
  await page.fill("input[name=predict]", "1200");
  await next(page, "Result");
  assert(await page.locator("#predicted").count() === 1, "a result without script");
  await ctx.close();
});

test("bad input is shown next to its field and stores nothing", async ({ server, browser }) => {
  const page = await watchedPage(browser, 390, 844);
  const before = await server.snapshot();
  const q = new URLSearchParams({ application: MATMUL, executable: "matmul_sgi", system: SGI,
    graph: "poly3", x: "N", y: "runtime", "fix.nprocs": "8", step: "3" });
  await page.goto(`${server.base}/model/fit?${q}`, { waitUntil: "networkidle" });
  await page.fill("input[name=predict]", "twelve hundred");
  await page.locator("#next").click();
  await page.waitForLoadState("networkidle");
  // the 422 of the form's own URL is expected; anything else is a defect
  const rest = page.problems.splice(0).filter((p) =>
    !/^HTTP 422: .*\/model\/fit\?/.test(p) && !/status of 422/.test(p));
  assert(rest.length === 0, rest.join("\n"));
  const err = page.locator("#f-predict-error");
  assert(await err.isVisible(), "error visible");
  assert((await err.innerText()).includes("predict takes numbers"), await err.innerText());
  const inBox = await page.locator("input[name=predict]").evaluate(
    (input) => input.closest(".field").contains(document.getElementById("f-predict-error")));
  assert(inBox, "the message sits in the field's box");
  assert(await page.locator("input[name=predict]").inputValue() === "twelve hundred", "value kept");
  await assertNoHorizontalOverflow(page, "error page at 390px");
  await screenshot(page, "form-fit-error-390");
  // speedup over N: the error is at the y axis on step 2
  const q2 = new URLSearchParams({ application: MATMUL, executable: "matmul_sgi", system: SGI,
    graph: "poly3", x: "N", y: "speedup", "fix.nprocs": "8", predict: "1200", step: "result" });
  const u2 = `${server.base}/model/fit?${q2}`;
  page.expectStatus.set(u2, 422);
  await page.goto(u2, { waitUntil: "networkidle" });
  assert((await page.locator("#f-y-error").innerText()).includes("speedup needs x"), "y error");
  assert(await server.snapshot() === before, "nothing was stored");
  page.assertClean("bad input");
  await page.context().close();
});

test("the forms and results fit a phone", async ({ server, browser }) => {
  const page = await watchedPage(browser, 390, 844);
  for (const [name, path] of [
    ["index", "/model"],
    ["fit-step1", "/model/fit"],
    ["fit-result", "/model/fit?" + new URLSearchParams({ application: MATMUL, executable: "matmul_sgi",
      system: SGI, graph: "poly3", x: "N", "fix.nprocs": "8", predict: "1200", step: "result" })],
    ["param-step2", "/model/parameterize?step=2"],
    ["couple-step2", "/model/couple?step=2"],
    ["couple-result", "/model/couple?predict=64&step=result"],
  ]) {
    // networkidle: leaving a page while its icon still loads would abort that request
    await page.goto(server.base + path, { waitUntil: "networkidle" });
    await assertNoHorizontalOverflow(page, `${path} at 390px`);
    const wide = await page.$$eval("figure.plot svg", (els) =>
      els.filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).length);
    assert(wide === 0, `${path}: plots wider than the window`);
    await screenshot(page, `form-${name}-390`);
    page.assertClean(`${path} at 390px`);
  }
  await page.context().close();
});

run();
