import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { importTerminalBench } from "../store/import/terminal-bench.js";

const repo = new URL("../", import.meta.url).pathname;

/**
 * Importing the whole vendored Terminal-Bench tree (13 submissions, 3,636 JSON files, 50 MB), alternated in one
 * sitting with the peer: a Python walk that parses every results file with orjson (else the C json module) and
 * keeps each trial once (bench/peers/terminal_bench_read.py), the least any importer of this tree has to do. Ours also
 * builds the store (tasks, items, 26,523 judgments); the CLI's full import also writes and validates it.
 */
export async function benchImport(runs = 3): Promise<string[]> {
  const tmp = mkdtempSync(join(tmpdir(), "gcpc-import-bench-"));
  try {
    execFileSync("tar", ["xzf", join(repo, "data/real/raw/terminal-bench/results.tar.gz"), "-C", tmp]);
    const root = join(tmp, "results");
    const ours: number[] = [];
    const peer: number[] = [];
    const cli: number[] = [];
    let trials = 0;
    let parser = "";
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      trials = importTerminalBench([root]).store.trajectories.length;
      ours.push(performance.now() - t0);
      const p = spawnSync("python3", [join(repo, "bench/peers/terminal_bench_read.py"), root], { encoding: "utf8" });
      if (p.status !== 0) throw new Error(p.stderr);
      const reported = JSON.parse(p.stdout) as { seconds: number; parser: string };
      peer.push(1000 * reported.seconds);
      parser = reported.parser;
      const out = join(tmp, `store-${r}`);
      const c0 = performance.now();
      const c = spawnSync(
        process.execPath,
        [join(repo, "bin/gcpc.js"), "import", "terminal-bench", root, "--out", out],
        {
          encoding: "utf8",
        },
      );
      if (c.status !== 0) throw new Error(c.stderr);
      cli.push(performance.now() - c0);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return [
      `import terminal-bench, whole vendored tree (${trials.toLocaleString("en-US")} trials): in-process ` +
        `${median(ours).toFixed(0)} ms median of ${runs} (${ours.map((x) => x.toFixed(0)).join(" / ")}), peer ` +
        `(Python, ${parser}, parse + dedupe only) ${median(peer).toFixed(0)} ms ` +
        `(${peer.map((x) => x.toFixed(0)).join(" / ")}): ` +
        `${(median(ours) / median(peer)).toFixed(2)}× the peer's time, alternated in one sitting`,
      `gcpc import terminal-bench as a user runs it (process start, import, Parquet write, validation): ` +
        `${median(cli).toFixed(0)} ms median (${cli.map((x) => x.toFixed(0)).join(" / ")})`,
    ];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
