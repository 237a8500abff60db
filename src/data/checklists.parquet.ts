import { dataset } from "./datasets.js";
import { emitParquet } from "./emit.js";

await emitParquet(await dataset("checklists"));
