import { dataset } from "./datasets.js";
import { rowsToArrowIPC } from "./arrow.js";

// Item-level labels of both sides of every matched pair (which criteria changed), with the cited evidence.
process.stdout.write(rowsToArrowIPC(await dataset("pair-items")));
