// The one data loader of the site: reads the store once, takes the analysis computed by `gcpc site`
// (or computes it), and writes every file the pages read into one archive. Pages read its members
// as FileAttachment("data/site/NAME"); Framework extracts them at build time.
import { resolve } from "node:path";
import JSZip from "jszip";
import { prepareStore } from "../../analysis/rq/prepared.js";
import { realData } from "../../report/site/real-data.js";
import { siteFiles } from "../../report/site/site-files.js";
import { readStore } from "../../store/read-store.js";
import { loadReport } from "./load-store.js";

const { prepared, report } = await loadReport();
const files = await siteFiles(report, prepared);
// The Real data page always describes the bundled real stores (paths can be overridden), at the build's seed.
const registry = resolve(process.env.GCPC_REAL_REGISTRY ?? "data/real/skillsbench-registry");
const harbor = resolve(process.env.GCPC_REAL_HARBOR ?? "data/real/harbor-sample");
const real = realData(
  prepareStore((await readStore(registry)).store),
  prepareStore((await readStore(harbor)).store),
  report.settings,
);
files.push({ name: "real.json", content: JSON.stringify(real) });
const zip = new JSZip();
// A fixed timestamp: the same store and seed give the same archive bytes.
for (const f of files) zip.file(f.name, f.content, { date: new Date("2000-01-01T00:00:00Z") });
process.stdout.write(await zip.generateAsync({ type: "uint8array", compression: "STORE" }));
