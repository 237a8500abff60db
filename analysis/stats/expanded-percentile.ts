import { argError } from "../errors.js";
import { normalCdf } from "./obuchowski.js";
import { studentTQuantile } from "./student-t.js";

/**
 * Nominal level of the expanded percentile interval (Hesterberg 2015, "What teachers should know
 * about the bootstrap", The American Statistician 69(4), §5): the percentile interval is too
 * narrow in small samples, by about √((n−1)/n) and by using z where t belongs. It reads the
 * draws at α′/2 and 1 − α′/2 instead of α/2, with
 *   α′/2 = Φ(−√(n/(n−1)) · t_{1−α/2, n−1}),
 * n = the number of resampled units (here clusters: tasks). For n = 30 and 95% that is the
 * 1.88% and 98.12% quantiles; the correction vanishes as n grows. Returns the level 1 − α′.
 *
 * `spent`: degrees of freedom the estimate spends beyond its mean, in [0, 1). A control-variate (regression)
 * estimator with an estimated coefficient has n − 2 residual degrees of freedom, not n − 1 (Cochran 1977,
 * Sampling Techniques §7.4); a coefficient shrunk by a factor s spends s of one, the effective degrees of freedom
 * of a ridge-shrunk coefficient (Hastie, Tibshirani & Friedman, ESL §3.4.1: df = Σ d²/(d² + k)). The same
 * expansion then reads √(n/(n−1−s)) and t with n − 1 − s degrees of freedom.
 */
export function expandedPercentileLevel(level: number, clusters: number, spent = 0): number {
  if (!(level > 0 && level < 1)) throw argError("expandedPercentileLevel", "level", level, "must be in (0, 1)");
  if (!(Number.isInteger(clusters) && clusters >= 2))
    throw argError("expandedPercentileLevel", "clusters", clusters, "must be an integer ≥ 2");
  if (!(spent >= 0 && spent < 1)) throw argError("expandedPercentileLevel", "spent", spent, "must be in [0, 1)");
  const df = clusters - 1 - spent; // > 0: clusters ≥ 2 and spent < 1
  const t = studentTQuantile(1 - (1 - level) / 2, df);
  const tail = normalCdf(-Math.sqrt(clusters / df) * t);
  return 1 - 2 * tail;
}
