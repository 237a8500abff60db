import * as Plot from "@observablehq/plot";

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
    x: { domain: [-1, 1], label: "Δ plain GCPC (with − without skill)" },
    y: { label: "pairs", grid: true },
    marks: [
      Plot.rectY([0], { x1: -noiseFloor, x2: noiseFloor, y1: 0, y2: Infinity, fill: "#e6e6e6" }),
      Plot.rectY(
        deltas,
        Plot.binX({ y: "count" }, { x: "delta", fy: "transition", domain: [-1, 1], thresholds: 40, fill: "steelblue" }),
      ),
      Plot.ruleX([-threshold, threshold], { stroke: "red", strokeDasharray: "4 2" }),
      Plot.ruleX(medians, { x: "median_delta", fy: "group", stroke: "black", strokeWidth: 2 }),
      Plot.ruleY([0]),
    ],
  });
}
