// Observable Inputs' stylesheet, copied from node_modules (Framework adds it only for `npm:` imports,
// which would reach for the CDN; pages link this copy instead).
import { createRequire } from "node:module";
import { createReadStream } from "node:fs";
createReadStream(createRequire(import.meta.url).resolve("@observablehq/inputs/dist/index.css")).pipe(process.stdout);
