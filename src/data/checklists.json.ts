import { dataset } from "./datasets.js";

// Frozen checklists with each mechanical gate's result.
process.stdout.write(JSON.stringify(await dataset("checklists")));
