// The Compare page's arms mode against `gcpc compare --format json` on the same store: the CLI run and the
// printed digits both arms-mode tests check (site.test.ts on the demo, site-real.test.ts on τ²).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Page } from "playwright-core";

const repo = new URL("../../", import.meta.url).pathname;

/** `gcpc compare STORE --a A --b B --format json [extra...]`, parsed; the test fails on a non-zero exit. */
export function gcpcCompareJson(store: string, a: string, b: string, extra: string[] = []): any {
  const r = spawnSync(
    process.execPath,
    [join(repo, "bin/gcpc.js"), "compare", store, "--a", a, "--b", b, "--format", "json", ...extra],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The page prints the CLI's pairing, pair count, pass-rate Δ, its interval and McNemar p, digit for digit. */
export async function assertArmsDigits(page: Page, expected: any): Promise<void> {
  const pp = (x: number) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} pp`;
  const d = expected.pass_rate_delta;
  assert.equal(await page.textContent("#arms-pairing"), expected.pairing.mode);
  assert.equal(Number(await page.textContent("#arms-pairs")), expected.matched.pairs);
  assert.equal(await page.textContent("#arms-delta"), pp(d.estimate));
  assert.equal(await page.textContent("#arms-delta-ci"), `[${pp(d.ci[0])}, ${pp(d.ci[1])}]`);
  assert.equal(await page.textContent("#arms-p"), d.p < 1e-4 ? d.p.toExponential(1) : d.p.toFixed(4));
}
