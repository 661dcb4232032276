// The upload page's import form in a real browser: the format select lists
// the table of formats after "auto"; a truncated Extra-P file shows its line
// next to the file field and stores nothing; OSU output without a system
// shows the error at the system field; a good file is imported, and the same
// file again stores nothing new; a TAU directory as a tar archive is one run;
// a file that counts no calls shows "—" for them on the run page; what an
// import left out (an OSU log's NCCL tables) is said on the result page.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow } from "./lib.mjs";

const DATA = join(dirname(fileURLToPath(import.meta.url)), "../data/import");
const file = (p, name) => ({ name: name || p.split("/").pop(), mimeType: "application/octet-stream",
                             buffer: readFileSync(join(DATA, p)) });

async function submit(page, server, f, fields = {}) {
  await page.setInputFiles("#import-file", f);
  for (const [k, v] of Object.entries(fields)) {
    if (k === "format") await page.selectOption("#import-format", v);
    else await page.fill(`#import-${k}`, v);
  }
  await page.fill("#import-token", server.token);
  await page.locator("#import-form button[type=submit]").click();
  await page.waitForURL(server.base + "/upload/import");
}

test("the import form stores a file once and refuses a bad one whole", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/upload");
  const options = await page.locator("#import-format option").evaluateAll(
    (os) => os.map((o) => o.value));
  assert(options[0] === "auto", "auto first");
  for (const f of ["extrap-text", "extrap-jsonl", "tau", "osu", "otf2", "gbench", "csv"])
    assert(options.includes(f), `format ${f} offered`);
  assert(await page.locator("#import-format").inputValue() === "auto", "auto by default");

  const before = await server.snapshot();
  const url = server.base + "/upload/import";
  page.expectStatus.set(url, 422);
  await submit(page, server, file("extrap-text/truncated.txt"), { application: "imp browser" });
  const err = page.locator("#import-file-error");
  assert((await err.innerText()).includes("truncated.txt:5:"), await err.innerText());
  assert(await page.locator("#import-file").evaluate(
    (input) => input.closest(".field").contains(document.getElementById("import-file-error"))),
    "the message sits in the file field's box");
  assert(await page.locator("#import-application").inputValue() === "imp browser",
    "values are kept");
  await screenshot(page, "import-error-file-1280");

  await submit(page, server, file("osu/latency.txt"), { format: "osu" });
  assert((await page.locator("#import-system-error").innerText()).includes("system"),
    "the system error sits at the system field");
  assert(await page.locator("#import-format").inputValue() === "osu", "the format is kept");
  assert(await server.snapshot() === before, "nothing was stored");
  page.assertClean("bad imports");
  page.expectStatus.clear();

  await submit(page, server, file("extrap-text/lulesh.txt"),
               { format: "auto", application: "imp browser", system: "imp-sys" });
  let text = await page.locator("#import-result").innerText();
  assert(text.includes("Imported 6 new runs (0 already stored)") && text.includes("extrap-text"),
    text);
  const list = await server.api("GET", "/api/v1/runs?application=imp%20browser");
  assert(list.body.runs.length === 6 && list.body.runs[0].system === "imp-sys", "six runs stored");
  await screenshot(page, "import-stored-1280");

  await page.goto(server.base + "/upload#import");
  await submit(page, server, file("extrap-text/lulesh.txt"),
               { application: "imp browser", system: "imp-sys" });
  text = await page.locator("#import-result").innerText();
  assert(text.includes("Imported 0 new runs (6 already stored)"), text);

  await page.goto(server.base + "/upload#import");
  await submit(page, server, file("tau/run.tar"), { application: "imp tau" });
  text = await page.locator("#import-result").innerText();
  assert(text.includes("Imported 1 new run (0 already stored)") && text.includes("tau"), text);
  page.assertClean("good imports");
  await page.context().close();
});

test("the import form at phone width", async ({ server, browser }) => {
  const page = await watchedPage(browser, 390, 844);
  await page.goto(server.base + "/upload#import");
  assert(await page.locator("#import-form").isVisible(), "the form shows");
  await screenshot(page, "import-form-390");
  page.assertClean("phone");
  await page.context().close();
});

// An OSU log whose NCCL tables Prophecy does not read (OMB 7.5's xccl
// suite beside an MPI test): the result says what was left out, at desktop
// and phone width.
test("what an import left out is said on the result page", async ({ server, browser }) => {
  const log = "# OSU MPI-CUDA Latency Test v7.5\n# Size          Latency (us)\n" +
    "1                       2.5\n2                       2.6\n" +
    "# OSU NCCL-CUDA Allreduce Latency Test v7.5\n# Size       Avg Latency(us)\n" +
    "8                    8955.18\n";
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    const page = await watchedPage(browser, w, h);
    await page.goto(server.base + "/upload#import");
    await submit(page, server, { name: "gpu.out", mimeType: "text/plain", buffer: Buffer.from(log) },
                 { format: "osu", system: "gpu box" });
    const note = page.locator(".import-note");
    assert(await note.count() === 1, "one note");
    const text = await note.innerText();
    assert(text === 'gpu.out: 1 table left out, of tests Prophecy does not read ' +
           '(the first: "NCCL-CUDA Allreduce Latency")', text);
    await assertNoHorizontalOverflow(page);
    await screenshot(page, `import-note-${w}`);
    page.assertClean("a note");
    await page.context().close();
  }
});

// A series of real Caliper profiles (hatchet's demo runs) whose files do
// not say what varied: the Inputs field gives every run of the import its
// inputs, shown on the run page; a value that is not a number is said at
// the field, with what was typed kept, and nothing is stored. Desktop and
// phone width.
test("the inputs field gives every run the inputs the file does not say", async ({ server, browser }) => {
  for (const [w, h, n] of [[1280, 900, "1000"], [390, 844, "2000"]]) {
    const page = await watchedPage(browser, w, h);
    await page.goto(server.base + "/upload#import");
    const hint = await page.locator("#import-inputs").getAttribute("placeholder");
    assert(hint === "N=1000, p=4", `placeholder ${hint}`);
    const before = await server.snapshot();
    page.expectStatus.set(server.base + "/upload/import", 422);
    await submit(page, server, file("public/caliper-json/hatchet_demo_out_5.json"),
                 { application: "inputs browser", inputs: "N=big" });
    const err = page.locator("#import-inputs-error");
    assert((await err.innerText()).includes("input.N=big: the value must be a number"),
      await err.innerText());
    assert(await page.locator("#import-inputs").inputValue() === "N=big", "the value is kept");
    assert(await server.snapshot() === before, "nothing was stored");
    await assertNoHorizontalOverflow(page, `inputs error at ${w} px`);
    await screenshot(page, `import-inputs-error-${w}`);
    page.expectStatus.clear();
    await submit(page, server, file("public/caliper-json/hatchet_demo_out_5.json"),
                 { application: "inputs browser", inputs: `N=${n}, p=4` });
    const text = await page.locator("#import-result").innerText();
    assert(text.includes("Imported 1 new run (0 already stored)"), text);
    const list = await server.api("GET", "/api/v1/runs?application=inputs%20browser");
    const run = list.body.runs.find((r) => r.inputs.N === Number(n));
    assert(run && run.inputs.p === 4, JSON.stringify(list.body.runs));
    await page.goto(`${server.base}/runs/${run.id}`);
    const table = page.locator("table", { has: page.locator("caption", { hasText: /^Inputs$/ }) });
    const rows = (await table.locator("tbody tr").allInnerTexts()).map((r) => r.replace(/\s+/g, " "));
    assert(JSON.stringify(rows) === JSON.stringify([`N ${n}`, "p 4"]),
      `inputs at ${w} px: ${JSON.stringify(rows)}`);
    await table.scrollIntoViewIfNeeded();
    await assertNoHorizontalOverflow(page, `run page at ${w} px`);
    await screenshot(page, `import-inputs-run-${w}`);
    page.assertClean(`inputs at ${w} px`);
    await page.context().close();
  }
});

// A real Caliper profile whose Adiak metadata says its problem size
// (hatchet's LULESH run, problem_size "30"): a name alone in the Inputs
// field takes each run's value from its file, shown on the run page; a name
// the file does not say is refused at the field, storing nothing. Desktop
// and phone width.
test("a name alone in the inputs field is read from the file", async ({ server, browser }) => {
  const lulesh = "public/caliper-json/hatchet_caliper-region-node-order_2.10.json";
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    const page = await watchedPage(browser, w, h);
    await page.goto(server.base + "/upload#import");
    const before = await server.snapshot();
    page.expectStatus.set(server.base + "/upload/import", 422);
    await submit(page, server, file(lulesh), { application: `adiak ${w}`, inputs: "mesh" });
    const err = page.locator("#import-inputs-error");
    assert((await err.innerText()).includes("no input, tag or metadata named mesh"),
      await err.innerText());
    assert(await server.snapshot() === before, "nothing was stored");
    await assertNoHorizontalOverflow(page, `metadata error at ${w} px`);
    await screenshot(page, `import-inputs-metadata-error-${w}`);
    page.expectStatus.clear();
    await submit(page, server, file(lulesh), { application: `adiak ${w}`, inputs: "problem_size" });
    const text = await page.locator("#import-result").innerText();
    assert(text.includes("Imported 1 new run (0 already stored)"), text);
    const list = await server.api("GET", `/api/v1/runs?application=adiak%20${w}`);
    const run = list.body.runs[0];
    assert(run && run.inputs.problem_size === 30, JSON.stringify(list.body.runs));
    await page.goto(`${server.base}/runs/${run.id}`);
    const table = page.locator("table", { has: page.locator("caption", { hasText: /^Inputs$/ }) });
    const rows = (await table.locator("tbody tr").allInnerTexts()).map((r) => r.replace(/\s+/g, " "));
    assert(JSON.stringify(rows) === JSON.stringify(["problem_size 30"]),
      `inputs at ${w} px: ${JSON.stringify(rows)}`);
    await table.scrollIntoViewIfNeeded();
    await assertNoHorizontalOverflow(page, `run page at ${w} px`);
    await screenshot(page, `import-inputs-metadata-run-${w}`);
    page.assertClean(`metadata inputs at ${w} px`);
    await page.context().close();
  }
});

// A file that counts no calls (Extra-P JSON lines): its kernels' Calls cells
// read "—" on the run page, at desktop and phone width, never "0" (SPEC §16);
// the table stays in its box at 390 px.
test("kernels without a call count show a dash, desktop and phone", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/upload#import");
  await submit(page, server, file("extrap-jsonl/input.jsonl"), { application: "calls browser" });
  const text = await page.locator("#import-result").innerText();
  assert(text.includes("Imported 3 new runs") && text.includes("extrap-jsonl"), text);
  const list = await server.api("GET", "/api/v1/runs?application=calls%20browser");
  const run = list.body.runs.find((r) => r.kernels.length === 2);
  assert(run && run.kernels.every((k) => k.calls === null), JSON.stringify(list.body.runs[0]));
  await page.context().close();
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    const p = await watchedPage(browser, w, h);
    await p.goto(`${server.base}/runs/${run.id}`);
    const table = p.locator("table", { has: p.locator("caption", { hasText: /^Kernels$/ }) });
    const head = await table.locator("thead th").allInnerTexts();
    const col = head.indexOf("Calls");
    assert(col >= 0, `a Calls column: ${head}`);
    const cells = await table.locator(`tbody tr td:nth-child(${col + 1})`).allInnerTexts();
    assert(cells.length === 2 && cells.every((c) => c.trim() === "\u2014"),
      `Calls cells at ${w} px: ${JSON.stringify(cells)}`);
    await table.scrollIntoViewIfNeeded();
    await assertNoHorizontalOverflow(p, `run page at ${w} px`);
    await screenshot(p, `run-calls-unknown-${w}`);
    p.assertClean(`run page at ${w} px`);
    await p.context().close();
  }
});

run();
