export * from "./official-outcome.js";
export * from "./trajectory-metrics.js";
