import * as Plot from "./vendor/plot.js";

// Bins of width 0.05 centred on multiples of 0.05, so the many Δ = 0 pairs sit in a bar centred on
// zero (edges at 0 would draw that spike right of zero).
export const BIN_EDGES = Array.from({ length: 42 }, (_, i) => -1.025 + 0.05 * i);

/**
 * Figure 5: distribution of Δ GCPC per outcome transition, one row per group,
 * with the ±threshold lines (material change) and the noise-floor band drawn.
 */
export function deltaHistogram(deltas, { width, threshold, noiseFloor, medians, groups }) {
  return Plot.plot({
    width,
    height: 90 * groups.length + 60,
    marginLeft: 50,
    marginRight: 100,
    fy: { domain: groups, label: null },
    x: { domain: [-1.025, 1.025], label: "Δ plain GCPC (with − without skill)" },
    y: { label: "pairs", grid: true },
    marks: [
      // A rect without y spans the facet's full height: the noise band behind the bars.
      Plot.rect([{}], { x1: -noiseFloor, x2: noiseFloor, fill: "currentColor", fillOpacity: 0.12 }),
      Plot.rectY(
        deltas,
        Plot.binX({ y: "count" }, { x: "delta", fy: "transition", thresholds: BIN_EDGES, fill: "steelblue" }),
      ),
      Plot.ruleX([-threshold, threshold], { stroke: "red", strokeDasharray: "4 2" }),
      Plot.ruleX(medians, { x: "median_delta", fy: "group", stroke: "black", strokeWidth: 2 }),
      Plot.ruleY([0]),
    ],
  });
}
