// `node --import tsx scripts/demo-without-coupling.ts [SEED]`: the demo's paired ΔAUC (GCPC − holistic) with the
// generator's verifier coupling switched off (passAssertionYes 0), beside the shipped demo's. The demo's GCPC
// advantage over the holistic score comes from that coupling (issue 55.4); data/README.md quotes this output.
// SYNTHETIC.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeStore } from "../store/write-store.js";
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

const seed = Number(process.argv[2] ?? 20260101);
const dir = mkdtempSync(join(tmpdir(), "gcpc-uncoupled-"));
try {
  for (const [label, model] of [
    ["shipped demo (passAssertionYes 0.727)", {}],
    ["verifier coupling off (passAssertionYes 0)", { passAssertionYes: 0 }],
  ] as const) {
    const out = join(dir, label.startsWith("shipped") ? "a" : "b");
    await writeStore(out, generateDemoStore({ seed, model }), "parquet");
    const report = analyzeStore((await readStore(out)).store, { ...DEFAULT_SETTINGS, seed });
    const p = report.rq1.paired;
    if (!("delta" in p)) throw new Error(`paired ΔAUC not available: ${JSON.stringify(p)}`);
    const ci = p.ci ? `[${p.ci[0].toFixed(3)}, ${p.ci[1].toFixed(3)}]` : "[n/a]";
    console.log(`${label}: ΔAUC ${p.delta.toFixed(3)} ${ci} (SYNTHETIC, seed ${seed})`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
