import { join } from "node:path";
import { launch, openOffline, serve } from "../test/browser/harness.js";
const { server, origin } = await serve(join(process.cwd(), "dist"));
const browser = await launch();
for (const [path, width, scheme] of JSON.parse(process.argv[2]) as [string, number, "light" | "dark"][]) {
  const { page, problems } = await openOffline(browser, origin + path, "networkidle", { width, colorScheme: scheme });
  await page.waitForTimeout(1500);
  const name = `/tmp/shots/${path === "/" ? "index" : path.slice(1)}-${width}-${scheme}.png`;
  await page.screenshot({ path: name, fullPage: process.argv[3] === "full" });
  console.log(name, JSON.stringify(problems));
  await page.close();
}
await browser.close();
server.close();
