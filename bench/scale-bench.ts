// `npm run bench -- scale [S] [--against REV] [--runs N] [--bound] [--npx]`: `gcpc report --format json --out FILE`
// on a generated store at scale S (default 100; 430 is about 100× the paper), as docs/scaling.md's curve is
// measured. With --against, the same command of git revision REV (a worktree sharing this node_modules) runs
// alternated with this tree's in the one sitting: the machine's speed drifts by up to 20% between hours, so
// only runs alternated like this compare. With --bound, the report's interval jobs also run on one thread
// (bench/job-bound.ts), and the least report ÷ floor they leave on this machine's cores is printed. The
// scaling targets (docs/scaling.md): scale 100 in ≤ 20 s and ≤ 1.5 GiB, scale 430 in ≤ 2 min and ≤ 4 GiB.
// Not part of the default `npm run bench` (minutes per run at these scales).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../analysis/stats/quantile.js";
import { timeFloor } from "./duckdb-floor.js";

const repo = new URL("../", import.meta.url).pathname;
/**
 * Stores and worktrees are kept between runs in the OS temp folder (generating scale 430 takes minutes), not
 * under this tree: a worktree inside it would be a nested project to Biome and break `npm test`.
 */
const work = join(tmpdir(), "gcpc-bench");
const TIME = "/usr/bin/time";

interface Timed {
  seconds: number;
  /** Peak resident memory in GiB, when /usr/bin/time is there to read it. */
  gib?: number;
  /** sha-256 of the report, first 16 hex digits. */
  hash: string;
}

export async function benchScale(args: string[]): Promise<string[]> {
  const scale = Number(args.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 100);
  const against = flagValue(args, "--against");
  const runs = Number(flagValue(args, "--runs") ?? 2);
  const store = generatedStore(scale);
  const trees: [string, string][] = [["this tree", repo]];
  if (against) trees.push([`--against ${against}`, worktreeOf(against)]);
  const times = new Map<string, Timed[]>(trees.map(([name]) => [name, []]));
  const floors: number[] = [];
  // `npx gcpc report …`, the command a user types, alternated with the bench's own `node bin/gcpc.js report …`.
  const viaNpx = args.includes("--npx");
  if (viaNpx) times.set("npx gcpc (this tree)", []);
  for (let i = 0; i < runs; i++) {
    for (const [name, dir] of trees) times.get(name)!.push(timeReport(dir, store));
    if (viaNpx) times.get("npx gcpc (this tree)")!.push(timeReport(repo, store, true));
    // The floor alternated with the reports, in the same sitting (bench/duckdb-floor.ts).
    floors.push((await timeFloor(store)).seconds);
  }
  const lines = [`store: ${store} (gcpc generate --seed 1 --scale ${scale}); ${runs} run(s) each, alternated`];
  const shown = (t: Timed) => `${t.seconds.toFixed(1)} s${t.gib === undefined ? "" : ` ${t.gib.toFixed(2)} GiB`}`;
  for (const [name, list] of times) {
    const hashes = [...new Set(list.map((t) => t.hash))].join(" / ");
    const seconds = list.map((t) => t.seconds);
    const middle = median(seconds).toFixed(1);
    const fastest = Math.min(...seconds).toFixed(1);
    lines.push(`${name}: ${list.map(shown).join(", ")}; median ${middle} s, fastest ${fastest} s; report ${hashes}`);
  }
  const reportMedian = median(times.get("this tree")!.map((t) => t.seconds));
  lines.push(
    `floor (one DuckDB query over the Parquet files: plain GCPC and GCPC with the official outcome per ` +
      `trajectory): ${floors.map((f) => `${f.toFixed(2)} s`).join(", ")}; median ${median(floors).toFixed(2)} s; ` +
      `report ÷ floor ${(reportMedian / median(floors)).toFixed(1)}× (medians; target ≤ 8)`,
  );
  if (args.includes("--bound")) lines.push(...jobBound(store, median(floors), reportMedian));
  if (against) {
    // The fastest run too: another tenant of the machine only ever adds time, so the fastest of several
    // runs is the least disturbed (the medians moved by 20% between sittings of this machine).
    const ratio = (of: (s: number[]) => number) => {
      const [here, there] = trees.map(([name]) => of(times.get(name)!.map((t) => t.seconds)));
      return (here / there).toFixed(2);
    };
    const same = new Set([...times.values()].flat().map((t) => t.hash)).size === 1;
    lines.push(
      `this tree ÷ ${against}: median wall ${ratio(median)}, fastest ${ratio((s) => Math.min(...s))}; ` +
        (same ? "same bytes" : "REPORTS DIFFER"),
    );
  }
  return lines;
}

/**
 * `--bound`: the report's interval jobs on one thread (bench/job-bound.ts, a child process), and what they
 * alone make of report ÷ floor on this machine's cores.
 */
function jobBound(store: string, floor: number, report: number): string[] {
  const r = run(process.execPath, ["--import", "tsx", join(repo, "bench/job-bound.ts"), store], repo);
  const b = JSON.parse(r.stdout.trim().split("\n").pop()!) as {
    jobs: number;
    seconds: number;
    indices: number;
    byKind: Record<string, { jobs: number; seconds: number; indices: number }>;
  };
  const cores = availableParallelism();
  const kinds = Object.entries(b.byKind)
    .map(([k, v]) => `${k} ${v.jobs} jobs ${v.seconds.toFixed(2)} s ${(v.indices / 1e9).toFixed(2)}×10⁹`)
    .join("; ");
  return [
    `interval jobs on one thread: ${b.seconds.toFixed(1)} s for ${b.jobs} jobs drawing ` +
      `${(b.indices / 1e9).toFixed(2)}×10⁹ task indices (${kinds})`,
    `on ${cores} cores doing nothing else they take at least ${(b.seconds / cores).toFixed(1)} s: ` +
      `${(b.seconds / cores / floor).toFixed(1)}× the floor before a row is read (the least report ÷ floor at ` +
      "these bytes: the draws are seeded streams, part of the output)",
    `report ÷ (floor + the jobs' draw bound on ${cores} cores) = ${report.toFixed(1)} / ` +
      `(${floor.toFixed(2)} + ${(b.seconds / cores).toFixed(1)}) = ` +
      `${(report / (floor + b.seconds / cores)).toFixed(2)}× ` +
      "(what reading, preparing, scheduling and serialising add beyond the least possible)",
  ];
}

/** The value after `flag` in `args`, if the flag is there. */
export const flagValue = (args: string[], flag: string) =>
  args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;

/** The generated store of this scale (seed 1, Parquet), made once. */
export function generatedStore(scale: number): string {
  const dir = join(work, `store-scale-${scale}`);
  if (!existsSync(join(dir, "store.json"))) {
    rmSync(dir, { recursive: true, force: true });
    run(process.execPath, [join(repo, "bin/gcpc.js"), "generate", dir, "--seed", "1", "--scale", String(scale)], repo);
  }
  return dir;
}

/** A worktree of `rev` beside this one, sharing its node_modules, made once. */
function worktreeOf(rev: string): string {
  const dir = join(work, `tree-${rev.replace(/[^\w.-]/g, "_")}`);
  if (!existsSync(join(dir, "package.json"))) {
    run("git", ["worktree", "add", "--detach", "--force", dir, rev], repo);
    symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"));
  }
  return dir;
}

/** One `gcpc report --format json --out FILE` of `dir`'s code on the store. */
function timeReport(dir: string, store: string, viaNpx = false): Timed {
  const out = join(work, "report.json");
  const args = ["report", store, "--format", "json", "--out", out];
  rmSync(out, { force: true });
  // npx resolves the package's bin (node_modules/.bin/gcpc) first, as a user's `npx gcpc` does.
  const [command, gcpc] = viaNpx
    ? ["npx", ["--no-install", "gcpc", ...args]]
    : [process.execPath, [join(dir, "bin/gcpc.js"), ...args]];
  const measured = existsSync(TIME);
  const t0 = performance.now();
  const r = measured ? run(TIME, ["-f", "gcpc-bench-rss-kb %M", command, ...gcpc], dir) : run(command, gcpc, dir);
  const seconds = (performance.now() - t0) / 1000;
  const kb = /gcpc-bench-rss-kb (\d+)/.exec(r.stderr)?.[1];
  const hash = createHash("sha256").update(readFileSync(out)).digest("hex").slice(0, 16);
  return { seconds, gib: kb === undefined ? undefined : Number(kb) / 1024 / 1024, hash };
}

function run(command: string, args: string[], cwd: string) {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  return r;
}
