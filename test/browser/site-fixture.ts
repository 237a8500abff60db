// The site tests' shared fixture: a small synthetic store whose evidence strings, a task's domain and the
// store's name are hostile HTML (rendered text must stay text), its site built once per test run inside a
// network namespace where the machine allows one (test/helpers/shared-build.ts), and the CLI's JSON report of
// the same store. Each file that uses it serves the built folder itself and drives its own browser.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { generateDemoStore } from "../../store/generate/demo-store.js";
import { writeStore } from "../../store/write-store.js";
import { sharedBuild } from "../helpers/shared-build.js";
import { buildSite, launch, networkNamespaceAvailable, serve } from "./harness.js";

export const XSS = "<img src=x onerror=alert(1)>";
const repo = new URL("../../", import.meta.url).pathname;

export interface SiteFixture {
  /** The shared build's folder: store/, dist/, cache/ (read-only: copy before changing anything). */
  dir: string;
  store: string;
  dist: string;
  cache: string;
  /** Whether the build ran with no network at all (unshare -n). */
  offline: boolean;
  origin: string;
  server: Server;
  browser: Browser;
  /** `gcpc report STORE --format json`, parsed. */
  cli: any;
}

/** Builds (once per run) the hostile store's site, offline where possible, and its CLI report. */
export async function hostileSite(): Promise<string> {
  return sharedBuild("hostile-site", async (dir) => {
    const store = join(dir, "store");
    const s = generateDemoStore({ seed: 7, scale: 0.15 });
    for (const j of s.judgments) if (j.evidence) j.evidence = XSS;
    s.tasks[0].domain = XSS;
    s.manifest.name = `site-test store ${XSS}`;
    // Each model's runs start on its own day (models in name order): the History page orders them by first run.
    const models = [...new Set(s.trajectories.map((t) => t.model))].sort();
    for (const t of s.trajectories)
      t.started_at = new Date(Date.UTC(2025, 0, 1 + 7 * models.indexOf(t.model), 12)).toISOString();
    await writeStore(store, s, "jsonl");
    // A store and a cache never built before, built inside a network namespace (unshare -n) where the machine
    // has one: no request of any kind can leave the machine, so a build that needed the network fails here.
    const offline = networkNamespaceAvailable();
    buildSite(store, join(dir, "dist"), join(dir, "cache"), {}, [], { offline });
    writeFileSync(join(dir, "offline"), String(offline));
    const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "report", store, "--format", "json"], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`gcpc report failed:\n${r.stderr}`);
    writeFileSync(join(dir, "report.json"), r.stdout);
  });
}

export async function siteFixture(): Promise<SiteFixture> {
  const dir = await hostileSite();
  const dist = join(dir, "dist");
  const { server, origin } = await serve(dist);
  const browser = await launch();
  return {
    dir,
    store: join(dir, "store"),
    dist,
    cache: join(dir, "cache"),
    offline: readFileSync(join(dir, "offline"), "utf8") === "true",
    origin,
    server,
    browser,
    cli: JSON.parse(readFileSync(join(dir, "report.json"), "utf8")),
  };
}

/** The bundled real τ² store (base vs fine-tuned gpt-4.1): its site, built once per run, and the build's stderr. */
export async function tau2Site(): Promise<{ store: string; dist: string; buildStderr: string }> {
  const store = join(repo, "data/real/tau2-sft");
  const dir = await sharedBuild("tau2-site", (dir) => {
    const built = buildSite(store, join(dir, "dist"), join(dir, "cache"), { GCPC_PROGRESS: "1" }, [], {
      offline: networkNamespaceAvailable(),
    });
    writeFileSync(join(dir, "build.stderr"), built.stderr);
  });
  return { store, dist: join(dir, "dist"), buildStderr: readFileSync(join(dir, "build.stderr"), "utf8") };
}

/** The bundled Terminal-Bench store (13 submissions, several attempts per task): its site, built once per run. */
export async function terminalBenchSite(): Promise<{ store: string; dist: string }> {
  const store = join(repo, "data/real/terminal-bench");
  const dir = await sharedBuild("terminal-bench-site", (dir) => {
    buildSite(store, join(dir, "dist"), join(dir, "cache"), {}, [], { offline: networkNamespaceAvailable() });
  });
  return { store, dist: join(dir, "dist") };
}
