// `gcpc site STORE --preview` (npm run dev): one store path and one cache key with `gcpc site --out`. The
// preview serves the repo's pages on the archive of the build with the same key (reused, not recomputed),
// and the pages read the store's own analysis from it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeStore } from "../store/write-store.js";
import { buildSite } from "./browser/harness.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;

/** A free TCP port on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((settle, fail) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => settle(port));
    });
    s.on("error", fail);
  });
}

test("gcpc site --preview serves the pages on the archive of the build with the same key, reused", async () => {
  const tmp = tempDir("gcpc-preview-");
  const store = join(tmp, "store");
  const s = generateDemoStore({ seed: 11, scale: 0.1 });
  s.manifest.name = "preview-test store (synthetic)";
  await writeStore(store, s, "jsonl");
  const cache = join(tmp, "cache");
  buildSite(store, join(tmp, "dist"), cache);
  const workspaces = () => readdirSync(cache).filter((d) => !d.startsWith("_vendor"));
  assert.equal(workspaces().length, 1);
  const archive = join(cache, workspaces()[0], "src/data/site.zip");
  const builtAt = statSync(archive).mtimeMs;
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(repo, "bin/gcpc.js"), "site", store, "--preview", "--port", String(port), "--cache", cache],
    { cwd: repo, detached: true, stdio: "ignore" },
  );
  try {
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    while ((await fetch(`${origin}/rq1.html`).catch(() => undefined))?.ok !== true) {
      if (Date.now() > deadline) throw new Error("timed out after 120 s waiting for the preview server");
      await new Promise((r) => setTimeout(r, 250));
    }
    // The same key: no second workspace, and the build's archive was served as it was, not recomputed.
    assert.deepEqual(workspaces().length, 1);
    assert.equal(statSync(archive).mtimeMs, builtAt);
    assert.ok(readFileSync(join(repo, "src/data/site.zip")).equals(readFileSync(archive)));
    const html = await (await fetch(`${origin}/rq1.html`)).text();
    assert.match(html, /preview-test store \(synthetic\)/);
    // The page's data is this store's analysis: the CLI's figure for the same store and seed.
    const report = await (await fetch(`${origin}/_file/data/site/report.json`)).json();
    const cli = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "report", store, "--format", "json"], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    const expected = JSON.parse(cli.stdout);
    assert.equal(report.store.name, "preview-test store (synthetic)");
    assert.deepEqual(report.rq1.auc[0], expected.rq1.auc[0]);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    rmSync(tmp, { recursive: true, force: true });
  }
});
