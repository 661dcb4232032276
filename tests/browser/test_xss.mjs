// Names are text, never markup: an application, executable, system and input
// named like script uploaded over the API show as text on every page that
// lists them, and no dialog fires.
import { test, run, watchedPage, assert, screenshot } from "./lib.mjs";

const NAME = "<script>alert(1)</script>";
const SYS = "<img src=x onerror=alert(2)>";

test("hostile names are shown as text", async ({ server, browser }) => {
  const up = await server.api("POST", "/api/v1/runs", {
    runs: [4, 8].map((p) => ({ application: NAME, executable: "\"><svg onload=alert(3)>",
                               system: SYS, nprocs: p, runtime: 10 / p,
                               inputs: { "<b>N</b>": 1 },
                               kernels: [{ name: "<i onmouseover=alert(4)>k", time: 1 }] })),
  });
  assert(up.status === 201, `upload ${up.status}`);
  const page = await watchedPage(browser);
  const app = "/applications/" + encodeURIComponent(NAME);
  for (const path of ["/", "/applications", app, "/systems",
                      "/systems/" + encodeURIComponent(SYS), `/runs/${up.body.ids[0]}`]) {
    await page.goto(server.base + path);
    assert(await page.locator("script:not([src])").count() === 0, `${path}: no inline script`);
    assert(await page.locator("main img[src=x], main svg[onload], main i[onmouseover]").count() === 0,
      `${path}: no injected element`);
    await page.mouse.move(300, 400);
    page.assertClean(path); // a dialog would be recorded as a problem
  }
  await page.goto(server.base + "/");
  assert(await page.getByText(NAME, { exact: true }).count() >= 1, "the name shows as text");
  await page.getByText(NAME, { exact: true }).first().click();
  await page.waitForURL(/\/applications\//);
  assert(await page.locator("h1").innerText() === NAME, "the heading is the name");
  const cell = await page.locator("#runs-table tbody tr td:nth-child(5)").first().innerText();
  assert(cell === "<b>N</b>=1", `input shown as text: ${cell}`);
  await screenshot(page, "xss-app-1280");
  page.assertClean("xss");
  await page.context().close();
});

run();
