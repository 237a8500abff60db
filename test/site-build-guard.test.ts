// gcpc site stops its children and removes its staging folder on Ctrl-C / SIGTERM, refuses a second build into
// a folder another live build is writing, takes over a dead build's lock, and removes what a dead build left.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeLeftovers, STAGING_OWNER } from "../cli/site-guard.js";
import { tempDir } from "./helpers/temp-dir.js";
import { waitFor } from "./helpers/wait-for.js";

const repo = new URL("..", import.meta.url).pathname;
const gcpc = join(repo, "bin/gcpc.js");
const store = join(repo, "examples/jsonl-store");

/** Processes whose environment names `text` (Framework's build carries GCPC_SITE_OUT=<staging folder>). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").includes(text)) pids.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

test("SIGINT during the page build exits 130, stops Framework's process group and removes the staging folder", async () => {
  const dir = tempDir("gcpc-interrupt-");
  const out = join(dir, "site");
  const child = spawn(process.execPath, [gcpc, "site", store, "--out", out, "--cache", join(dir, "cache")], {
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((settle) => child.on("close", (code) => settle(code)));
  const staging = () => readdirSync(dir).find((n) => n.startsWith(".site.building-"));
  await waitFor(() => staging() !== undefined, "the build's staging folder", 60_000);
  const stagingPath = join(dir, staging()!);
  // Framework is running once a process carries the staging folder in its environment. Polled without a
  // pause, so the signal lands as early as it can: right after the spawn, which once raced the handlers.
  await waitFor(() => processesNaming(stagingPath).length > 0, "Framework's build process", 60_000, 0);
  child.kill("SIGINT");
  // The timer is cleared once the race is decided: left pending, it kept this file's process alive for the
  // rest of its 30 s after the last test.
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise((_, fail) => {
      timer = setTimeout(() => fail(new Error("no exit in 30 s")), 30_000);
    }),
  ]).finally(() => clearTimeout(timer));
  assert.equal(code, 130);
  assert.equal(existsSync(stagingPath), false, "staging folder removed");
  await waitFor(() => processesNaming(stagingPath).length === 0, "Framework's processes to end", 10_000);
  assert.equal(existsSync(out), false, "no output was swapped in");
});

test("a second build into a folder a live build is writing exits 2 naming it; a dead owner's lock is taken over", async () => {
  const dir = tempDir("gcpc-lock-");
  const out = join(dir, "site");
  const sleeper = spawn("sleep", ["60"]);
  try {
    writeFileSync(join(dir, ".site.lock"), `${sleeper.pid}\n`);
    const r = spawnSync(process.execPath, [gcpc, "site", store, "--out", out, "--cache", join(dir, "cache")], {
      encoding: "utf8",
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`another gcpc site \\(pid ${sleeper.pid}\\) is writing .*site`));
  } finally {
    sleeper.kill();
  }
  // The owner is gone: its lock, and a staging folder it left, are taken over and removed.
  writeFileSync(join(dir, ".site.lock"), "999999\n");
  mkdirSync(join(dir, ".site.building-left"));
  writeFileSync(join(dir, ".site.building-left", STAGING_OWNER), "999999\n");
  const r = spawnSync(process.execPath, [gcpc, "site", store, "--out", out, "--cache", join(dir, "cache")], {
    encoding: "utf8",
    env: { ...process.env, GCPC_PROGRESS: "1" },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /removed .*\.site\.building-left, left by an interrupted build/);
  assert.ok(existsSync(join(out, "index.html")));
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith(".site.")),
    [],
    "no lock and no staging folder left behind",
  );
});

test("leftovers of a live build are kept", () => {
  const dir = tempDir("gcpc-leftover-");
  mkdirSync(join(dir, ".site.building-live"));
  writeFileSync(join(dir, ".site.building-live", STAGING_OWNER), `${process.pid}\n`);
  assert.deepEqual(removeLeftovers(join(dir, "site")), []);
  assert.ok(existsSync(join(dir, ".site.building-live")));
});
