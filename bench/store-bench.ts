import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { csvFormat } from "d3";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeStore } from "../store/write-store.js";

const repo = new URL("../", import.meta.url).pathname;

function runReport(
  store: string,
  threads = 2,
): {
  readMs: number;
  analyzeMs: number;
  totalMs: number;
  maxRssMiB: number;
  rows: number;
  threads: number;
} {
  const args = ["--import", "tsx", join(repo, "bench/run-report.ts"), store, "--threads", String(threads)];
  const r = spawnSync(process.execPath, args, {
    encoding: "utf8",
    cwd: repo,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop()!);
}

export async function benchStores(): Promise<string[]> {
  const lines: string[] = [];
  const demo = runReport(join(repo, "data/demo"));
  lines.push(
    `report on data/demo (10,000 resamples per headline CI, 2,000 per other CI): ${demo.totalMs.toFixed(0)} ` +
      `ms wall (read ${demo.readMs.toFixed(0)}, analyse ${demo.analyzeMs.toFixed(0)}), ` +
      `peak RSS ${demo.maxRssMiB.toFixed(0)} MiB (target < 5 s)`,
  );
  const tmp = mkdtempSync(join(tmpdir(), "gcpc-bench-"));
  try {
    const big = join(tmp, "scale10");
    await writeStore(big, generateDemoStore({ seed: 1, scale: 10 }));
    const r10 = runReport(big);
    // The peer: the same report on one thread, in this run.
    const alone = runReport(big, 1);
    lines.push(
      `report on a generated store at scale 10 (${r10.rows.toLocaleString("en-US")} ` +
        `rows): ${r10.totalMs.toFixed(0)} ms wall on ${r10.threads} thread(s) (analyse ${r10.analyzeMs.toFixed(0)}), ` +
        `peak RSS ${r10.maxRssMiB.toFixed(0)} MiB (targets < 30 s, < 2 GiB); one thread ` +
        `${alone.totalMs.toFixed(0)} ms (analyse ${alone.analyzeMs.toFixed(0)}), ` +
        `${(alone.analyzeMs / r10.analyzeMs).toFixed(2)}× the analysis time`,
    );
    // Ingestion throughput per format: the same scale-3 store as Parquet, JSONL and CSV.
    const s = generateDemoStore({ seed: 2, scale: 3 });
    const pq = join(tmp, "pq"),
      js = join(tmp, "js"),
      cs = join(tmp, "csv");
    await writeStore(pq, s, "parquet");
    await writeStore(js, s, "jsonl");
    await writeStore(cs, s, "jsonl");
    for (const f of readdirSync(cs).filter((f) => f.endsWith(".jsonl"))) {
      const rows = readFileSync(join(cs, f), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      const table = f.replace(".jsonl", "");
      const listy = new Set(["verifier_tests", "tags"]);
      writeFileSync(
        join(cs, `${table}.csv`),
        csvFormat(
          rows.map((r) =>
            Object.fromEntries(Object.entries(r).map(([k, v]) => [k, listy.has(k) ? JSON.stringify(v) : v])),
          ),
        ),
      );
      rmSync(join(cs, f));
    }
    for (const [name, dir] of [
      ["Parquet", pq],
      ["JSONL", js],
      ["CSV", cs],
    ] as const) {
      const r = runReport(dir);
      lines.push(
        `ingestion ${name}: ${r.rows.toLocaleString("en-US")} rows read and validated ` +
          `in ${r.readMs.toFixed(0)} ms = ${Math.round(r.rows / (r.readMs / 1000)).toLocaleString("en-US")} ` +
          `rows/s`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return lines;
}
