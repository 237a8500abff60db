// The one data loader of the site. `gcpc site` builds the archive in its own process (it already holds
// the store and the analysis) and names it in $GCPC_SITE_ARCHIVE; this loader then only copies it.
// Without it (`npm run dev`), the loader reads the store and builds the same archive itself.
import { createReadStream } from "node:fs";
import { siteArchive } from "../../report/site/archive.js";
import { readRealStores } from "../../store/real-stores.js";
import { loadReport } from "./load-store.js";

if (process.env.GCPC_SITE_ARCHIVE) createReadStream(process.env.GCPC_SITE_ARCHIVE).pipe(process.stdout);
else {
  const { prepared, report } = await loadReport();
  process.stdout.write(await siteArchive(report, prepared, await readRealStores(process.cwd())));
}
