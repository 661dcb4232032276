// The upload forms in a real browser: a run typed into the form is stored
// and shown; a bad one shows the error next to the field, keeps the values
// and stores nothing; a CSV file is stored through the multipart form.
import { test, run, watchedPage, assert, screenshot } from "./lib.mjs";

async function fillRun(page, token, over = {}) {
  const v = { application: "browser form app", executable: "bf.x", system: "bf-sys",
              nprocs: "12", runtime: "4.75", inputs: "N=1500\nL=256",
              kernels: "setup=0.5\nsolve=4", metrics: "mflops=1234", ...over };
  for (const [k, val] of Object.entries(v)) await page.fill(`#run-${k}`, val);
  await page.fill("#run-token", token);
}

test("one run typed into the form is stored", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/upload");
  await fillRun(page, server.token);
  await page.locator("#run-form button[type=submit]").click();
  await page.waitForURL(/\/runs\/\d+\?stored=1$/);
  const id = Number(page.url().match(/\/runs\/(\d+)/)[1]);
  const text = await page.locator("main").innerText();
  assert(text.includes("The run was stored."), "confirmation shown");
  assert(text.includes("browser form app") && text.includes("4.75"), "values shown");
  assert(text.includes("solve") && text.includes("mflops"), "kernels and metrics shown");
  const got = await server.api("GET", `/api/v1/runs/${id}`);
  assert(got.status === 200 && got.body.nprocs === 12 && got.body.runtime === 4.75, "stored");
  assert(JSON.stringify(got.body.inputs) === JSON.stringify({ L: 256, N: 1500 }) ||
         JSON.stringify(got.body.inputs) === JSON.stringify({ N: 1500, L: 256 }), "inputs");
  assert(got.body.submitter === "browser", "submitter is the token's name");
  await screenshot(page, "upload-stored-1280");
  page.assertClean("upload");
  await page.context().close();
});

test("a bad run shows the error next to the field and stores nothing", async ({ server, browser }) => {
  const page = await watchedPage(browser);
  await page.goto(server.base + "/upload");
  const before = await server.snapshot();
  const url = server.base + "/upload/run";
  for (const [over, field, text] of [
    [{ nprocs: "0" }, "nprocs", "nprocs must be at least 1"],
    [{ runtime: "-3" }, "runtime", "runtime must not be negative"],
    [{ kernels: "solve=fast" }, "kernels", "not a finite number"],
  ]) {
    page.expectStatus.set(url, 422);
    await fillRun(page, server.token, over);
    await page.locator("#run-form button[type=submit]").click();
    await page.waitForURL(url);
    const err = page.locator(`#run-${field}-error`);
    assert(await err.isVisible(), `${field}: error visible`);
    assert((await err.innerText()).includes(text), `${field}: ${await err.innerText()}`);
    // next to the field: right under its input, inside the same .field box
    const same = await page.locator(`#run-${field}`).evaluate(
      (input, id) => input.closest(".field").contains(document.getElementById(id)),
      `run-${field}-error`);
    assert(same, `${field}: the message sits in the field's box`);
    assert(await page.locator(`#run-${field}`).getAttribute("aria-invalid") === "true",
      `${field}: aria-invalid`);
    assert(await page.locator("#run-application").inputValue() === "browser form app",
      "values are kept");
    assert(await page.locator("#run-token").inputValue() === "", "the token is not echoed");
    await screenshot(page, `upload-error-${field}-1280`);
    page.assertClean(`bad ${field}`);
  }
  // a wrong token: the error sits at the token field
  page.expectStatus.set(url, 401);
  await fillRun(page, "pt_not_a_token");
  await page.locator("#run-form button[type=submit]").click();
  await page.waitForURL(url);
  assert((await page.locator("#run-token-error").innerText()).includes("unknown or revoked"),
    "token error");
  page.assertClean("bad token");
  assert(await server.snapshot() === before, "nothing was stored");
  await page.context().close();
});

test("a CSV file is stored; a bad one is refused whole", async ({ server, browser }) => {
  const page = await watchedPage(browser, 390, 844);
  await page.goto(server.base + "/upload");
  const before = await server.snapshot();
  const bad = "application,executable,system,nprocs,runtime,N\n" +
              "csv browser,c.x,c-sys,4,2.5,100\ncsv browser,c.x,c-sys,-4,1.5,100\n";
  page.expectStatus.set(server.base + "/upload/csv", 422);
  await page.setInputFiles("#csv-file", { name: "bad.csv", mimeType: "text/csv",
                                          buffer: Buffer.from(bad) });
  await page.fill("#csv-token", server.token);
  await page.locator("#csv-form button[type=submit]").click();
  await page.waitForURL(server.base + "/upload/csv");
  assert((await page.locator("#csv-file-error").innerText()).includes("line 3"),
    "the error names the line");
  assert(await server.snapshot() === before, "nothing was stored");
  page.assertClean("bad csv");
  page.expectStatus.clear();

  const good = "application,executable,system,nprocs,runtime,N\n" +
               "csv browser,c.x,c-sys,4,2.5,100\ncsv browser,c.x,c-sys,8,1.5,100\n";
  await page.setInputFiles("#csv-file", { name: "good.csv", mimeType: "text/csv",
                                          buffer: Buffer.from(good) });
  await page.fill("#csv-token", server.token);
  await page.locator("#csv-form button[type=submit]").click();
  await page.waitForURL(server.base + "/upload/csv");
  assert((await page.locator("#upload-result").innerText()).includes("Stored 2 new runs"),
    "result shown");
  const list = await server.api("GET", "/api/v1/runs?application=" + encodeURIComponent("csv browser"));
  assert(list.body.runs.length === 2, "two runs stored");
  await screenshot(page, "upload-csv-390");
  page.assertClean("good csv");
  await page.context().close();
});

run();
