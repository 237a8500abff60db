// The site tests' shared fixture: a small synthetic store whose evidence strings, a task's domain and the
// store's name are hostile HTML (rendered text must stay text), its site built and served, a browser, and
// the CLI's JSON report of the same store. site.test.ts builds it offline (unshare -n); site-explorer.test.ts
// builds its own, so the two files run side by side.
import { spawnSync } from "node:child_process";
import type { Server } from "node:http";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { generateDemoStore } from "../../store/generate/demo-store.js";
import { writeStore } from "../../store/write-store.js";
import { tempDir } from "../helpers/temp-dir.js";
import { buildSite, launch, serve } from "./harness.js";

export const XSS = "<img src=x onerror=alert(1)>";
const repo = new URL("../../", import.meta.url).pathname;

export interface SiteFixture {
  tmp: string;
  store: string;
  origin: string;
  server: Server;
  browser: Browser;
  /** `gcpc report STORE --format json`, parsed. */
  cli: any;
}

export async function siteFixture(options: { offline: boolean }): Promise<SiteFixture> {
  const tmp = tempDir("gcpc-site-");
  const store = join(tmp, "store");
  const s = generateDemoStore({ seed: 7, scale: 0.15 });
  for (const j of s.judgments) if (j.evidence) j.evidence = XSS;
  s.tasks[0].domain = XSS;
  s.manifest.name = `site-test store ${XSS}`;
  await writeStore(store, s, "jsonl");
  buildSite(store, join(tmp, "dist"), join(tmp, "cache"), {}, [], options);
  const { server, origin } = await serve(join(tmp, "dist"));
  const browser = await launch();
  const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "report", store, "--format", "json"], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return { tmp, store, origin, server, browser, cli: JSON.parse(r.stdout) };
}
