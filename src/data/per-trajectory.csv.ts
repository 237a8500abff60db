import { dataset } from "./datasets.js";
import { emitCsv } from "./emit.js";

emitCsv(await dataset("per-trajectory"));
