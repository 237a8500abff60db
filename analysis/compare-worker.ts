/**
 * Web Worker entry of the site's Compare page: the page posts the rows of its chosen
 * subset, the worker runs the same estimators as `gcpc report` (pooled and within-task AUC per
 * method, the paired ΔAUC with Obuchowski's test) off the main thread and posts the results back,
 * so the page stays responsive during the 10,000-draw bootstraps. `gcpc site` bundles this file
 * as a classic worker script (no module worker, no blob: URL: CSP-friendly and offline).
 */
import { aucWithCI } from "./rq/common.js";
import { pairedAucComparison } from "./rq/rq1-discrimination.js";
import type { BootstrapSettings } from "./estimates/bootstrap-interval.js";

export interface CompareRequest {
  methods: [string, string];
  rowsA: { score: number; pass: boolean; task: string }[];
  rowsB: { score: number; pass: boolean; task: string }[];
  shared: { a: number; b: number; pass: boolean; task: string }[];
  settings: BootstrapSettings;
  /**
   * Each method's figure name (its seed with the run's seed), the CLI's for the same rows: `rq1:auc:<method>`,
   * or `rq1:condition:<c>` for GCPC on one condition (RQ1's by-condition row). The same rows under another
   * figure name draw other resamples, so an endpoint can differ in its third decimal.
   */
  figures?: [string, string];
}

export function compare(req: CompareRequest) {
  const [a, b] = req.methods;
  const [figureA, figureB] = req.figures ?? [`rq1:auc:${a}`, `rq1:auc:${b}`];
  const t0 = performance.now();
  const estA = aucWithCI(a, req.rowsA, req.settings, figureA);
  const estB = aucWithCI(b, req.rowsB, req.settings, figureB);
  const paired = a === b ? null : pairedAucComparison(req.shared, [a, b], req.settings);
  return { estA, estB, paired, workerMs: performance.now() - t0 };
}

// In a worker (no `document`), answer each request; imported elsewhere, it only exports `compare`.
const scope = globalThis as unknown as { document?: unknown; onmessage: unknown; postMessage?: (m: unknown) => void };
if (scope.document === undefined && typeof scope.postMessage === "function") {
  scope.onmessage = (e: { data: CompareRequest }) => {
    try {
      scope.postMessage?.({ ok: true, result: compare(e.data) });
    } catch (err) {
      scope.postMessage?.({ ok: false, error: String((err as Error).message ?? err) });
    }
  };
}
