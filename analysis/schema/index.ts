export * from "./tables.js";
export * from "./store.js";
