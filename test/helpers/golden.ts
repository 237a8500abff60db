// Report outputs whose bytes must not change unless a figure changes on purpose (issue 9:
// "behaviour unchanged"). `npm run golden:update` rewrites test/golden/report-outputs.json;
// its diff in review says which outputs changed.
import { createHash } from "node:crypto";
import { cli } from "./run-cli.js";

export const GOLDEN_FILE = new URL("../golden/report-outputs.json", import.meta.url);

export const GOLDEN_RUNS: string[][] = [
  ["data/demo", "--format", "json"],
  ["data/demo", "--format", "md"],
  ["data/demo", "--format", "csv"],
  ["data/demo", "--format", "latex"],
  ["examples/jsonl-store", "--format", "json"],
  ["examples/csv-store", "--format", "json"],
  ["data/real/harbor-sample", "--format", "json"],
  ["data/real/skillsbench-registry", "--format", "json"],
];

/** sha-256 and size of `gcpc report ARGS` for every golden run, keyed by the command line. */
export async function goldenDigests(): Promise<Record<string, { sha256: string; bytes: number }>> {
  const out: Record<string, { sha256: string; bytes: number }> = {};
  for (const args of GOLDEN_RUNS) {
    const r = await cli(["report", ...args]);
    if (r.code !== 0) throw new Error(`gcpc report ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
    const bytes = Buffer.from(r.stdout, "utf8");
    out[`gcpc report ${args.join(" ")}`] = {
      sha256: createHash("sha256").update(bytes).digest("hex"),
      bytes: bytes.length,
    };
  }
  return out;
}
