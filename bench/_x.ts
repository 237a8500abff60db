import { launch, openOffline, serve } from "../test/browser/harness.js";
const { server, origin } = await serve("/tmp/dist-w");
const browser = await launch();
for (const width of [1280, 390]) {
  const { page, problems } = await openOffline(browser, `${origin}/explorer`, "networkidle", { width });
  await page.waitForSelector("#category-bars svg", { timeout: 60_000 });
  console.log(width, await page.textContent("#pair-count"), JSON.stringify(problems));
  await page.click("#category-bars rect[data-key]");
  await page.waitForSelector("#clear-category", { timeout: 20_000 });
  await page.waitForTimeout(1500);
  console.log("after click", await page.textContent("#pair-count"), page.url());
  await page.screenshot({ path: `/tmp/explorer-${width}.png`, fullPage: true });
  await page.close();
}
await browser.close();
server.close();
