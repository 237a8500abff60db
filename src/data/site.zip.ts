// The one data loader of the site. `gcpc site` builds the archive in its own process (it already holds
// the store and the analysis) and names it in $GCPC_SITE_ARCHIVE; this loader then at most copies it.
// `gcpc site --preview` (`npm run dev`) writes the archive as the static file src/data/site.zip, which
// Framework serves instead of running this loader. Nothing here reads a store.
import { createReadStream, existsSync } from "node:fs";

const archive = process.env.GCPC_SITE_ARCHIVE;
if (archive) {
  // `gcpc site` starts Framework while it computes the archive and normally writes it in time as a static
  // file, which Framework then reads instead of running this loader. If Framework got here first, wait for
  // it: the CLI renames it into place complete, and stops this whole build if its analysis fails.
  // Framework runs in its own process group, so it outlives a `gcpc site` stopped by Ctrl-C: give up
  // once that process is gone rather than wait forever.
  const cli = Number(process.env.GCPC_SITE_CLI_PID);
  while (!existsSync(archive)) {
    if (cli > 0 && !alive(cli)) throw new Error(`gcpc site (pid ${cli}) stopped before writing ${archive}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  createReadStream(archive).pipe(process.stdout);
} else {
  throw new Error("the site's data is built by gcpc site: run npm run build, or npm run dev for a live preview");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
