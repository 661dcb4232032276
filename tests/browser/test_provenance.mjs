// SPEC §17 in the real browser: provenance on the application and run pages
// (columns, the branch filter), /compare from the navigation through its
// picker, signing in (forms then ask no token), a watch added on the history
// page and a run deleted after its confirmation — each page checked at 1280
// and 390 px with no console errors and no sideways scrolling, screenshots in
// build/artifacts/browser/provenance-*.png.
import { test, run, watchedPage, assert, screenshot, assertNoHorizontalOverflow, clickThrough }
  from "./lib.mjs";

const APP = "browser-prov";
const HISTORY = `/history?application=${APP}&executable=p.x&system=p-sys&nprocs=4` +
                "&input.N=100&input.M=1&y=runtime";
let runId = 0;

test("setup: runs on main and on a feature branch", async ({ server }) => {
  const runs = [];
  for (const [branch, rt] of [["main", 10], ["feature/fast-io", 9]])
    for (let m = 1; m <= 3; m++)
      for (let k = 0; k < 3; k++)
        runs.push({ application: APP, executable: "p.x", system: "p-sys", nprocs: 4,
                    inputs: { N: 100, M: m }, runtime: rt * m + 0.05 * k, branch,
                    commit: (branch === "main" ? "a1b2c3d4e5f6a7b8" : "f00dfeedcafe0001")
                      + String(k), tags: { compiler: "gcc-14" } });
  const up = await server.api("POST", "/api/v1/runs", { runs });
  assert(up.status === 201, `upload ${up.status}`);
  runId = up.body.ids[0];
});

test("the runs table shows and filters by provenance", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/applications/${APP}#runs`, { waitUntil: "networkidle" });
    await page.fill("#filter-branch", "main");
    await clickThrough(page, () => page.locator("#runs-filter button").click());
    assert(page.url().includes("branch=main"), `filtered url ${page.url()}`);
    const summary = await page.locator("#runs-summary").innerText();
    assert(summary.startsWith("9 runs"), `summary ${summary}`);
    const branches = await page.locator("#runs-table tbody td:nth-child(10)").allInnerTexts();
    assert(branches.length === 9 && branches.every((b) => b === "main"), `${branches}`);
    await assertNoHorizontalOverflow(page, `runs table at ${width}`);
    await screenshot(page, `provenance-runs-${width}`);
    page.assertClean(`runs ${width}`);
    await page.context().close();
  }
});

test("the run page shows commit, branch and tags", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/runs/${runId}`, { waitUntil: "networkidle" });
    assert((await page.locator("#run-commit").innerText()) === "a1b2c3d4e5f6a7b80", "commit");
    assert((await page.locator("#run-branch").innerText()) === "main", "branch");
    assert((await page.locator("#run-tags").innerText()) === "compiler=gcc-14", "tags");
    await assertNoHorizontalOverflow(page, `run at ${width}`);
    await screenshot(page, `provenance-run-${width}`);
    page.assertClean(`run ${width}`);
    await page.context().close();
  }
});

test("compare from the navigation through the picker", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/`, { waitUntil: "networkidle" });
    await clickThrough(page, () => page.locator("nav a[href='/compare']").click());
    await page.selectOption("#pick-application", APP);
    await clickThrough(page, () => page.locator("#compare-pick button").click());
    await page.selectOption("#pick-a", "branch:main");
    await page.selectOption("#pick-b", "branch:feature/fast-io");
    await screenshot(page, `provenance-picker-${width}`);
    await clickThrough(page, () => page.locator("#compare-pick button").click());
    const labels = await page.locator("svg text[text-anchor='end']").allTextContents();
    assert(new Set(labels).size === 3, `distinct labels ${labels}`);
    const text = await page.locator("main").innerText();
    assert(text.includes("b vs a") && /-\d+(\.\d+)? %/.test(text), "changes in percent");
    await assertNoHorizontalOverflow(page, `compare at ${width}`);
    await screenshot(page, `provenance-compare-${width}`);
    page.assertClean(`compare ${width}`);
    await page.context().close();
  }
});

test("signed in, a watch is added and a run deleted without a token", async ({ server, browser }) => {
  for (const width of [1280, 390]) {
    const page = await watchedPage(browser, width, 900);
    await page.goto(`${server.base}/login`, { waitUntil: "networkidle" });
    await screenshot(page, `provenance-login-${width}`);
    await page.fill("#login-token", server.token);
    page.expectStatus.set(`${server.base}/login`, 303);
    await clickThrough(page, () => page.click("#login-button"));
    assert(await page.locator("#sign-out").count() === 1, "signed in");
    await page.goto(`${server.base}${HISTORY}`, { waitUntil: "networkidle" });
    assert(await page.locator("#watch-form input[name=token]").count() === 0, "no token field");
    await page.selectOption("#watch-test", "percent");
    await page.fill("#watch-threshold", String(10 + (width === 390 ? 5 : 0)));
    page.expectStatus.set(`${server.base}/watches`, 303);
    await clickThrough(page, () => page.click("#watch-add"));
    // at 390 px, after the two watches added at 1280 px
    assert(await page.locator("#watch-list li").count() === (width === 390 ? 3 : 1),
      "the watch is listed");
    if (width !== 390) {
      // the scaling-law watch (SPEC §17) from the same form
      await page.selectOption("#watch-test", "scaling");
      await page.fill("#watch-target", "256");
      await page.fill("#watch-baseline", "branch:main");
      await clickThrough(page, () => page.click("#watch-add"));
      assert(await page.locator("#watch-list li").count() === 2, "the scaling watch is listed");
      // in words, not JSON ("=" between non-breaking spaces)
      const txt = (await page.locator("#watch-list").innerText()).replace(/\u00a0/g, " ");
      assert(txt.includes("scaling = (x = nprocs, target = 256, baseline = branch:main") &&
        !txt.includes('"'), `the scaling watch's detector: ${txt}`);
    }
    await assertNoHorizontalOverflow(page, `history at ${width}`);
    await page.locator("#watches").scrollIntoViewIfNeeded();
    await screenshot(page, `provenance-watches-${width}`);
    // delete a run: the confirmation first
    const victim = runId + (width === 390 ? 1 : 2);
    await page.goto(`${server.base}/runs/${victim}`, { waitUntil: "networkidle" });
    await clickThrough(page, () => page.click("#run-delete"));
    assert(await page.locator("#confirm-form input[name=token]").count() === 0, "no token");
    await screenshot(page, `provenance-confirm-${width}`);
    page.expectStatus.set(`${server.base}/runs/${victim}/delete`, 303);
    await clickThrough(page, () => page.click("#confirm-delete"));
    const gone = await server.api("GET", `/api/v1/runs/${victim}`);
    assert(gone.status === 404, `run ${victim} deleted (${gone.status})`);
    // signing out brings the token fields back
    page.expectStatus.set(`${server.base}/logout`, 303);
    await clickThrough(page, () => page.click("#sign-out"));
    await page.goto(`${server.base}/upload`, { waitUntil: "networkidle" });
    assert(await page.locator("input[name=token]").count() >= 1, "token fields again");
    page.assertClean(`session ${width}`);
    await page.context().close();
  }
});

await run();
