import { basename, join, resolve, sep } from "node:path";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { orderFile } from "./history-command.js";
import { DEFAULT_SETTINGS, INTERVAL_METHODS } from "../analysis/estimates/bootstrap-interval.js";
import { analyzePrepared } from "../analysis/rq/report.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { siteArchive } from "../report/site/archive.js";
import { siteCapabilities } from "../report/site/capabilities.js";
import { isClickhouseLocation } from "../store/clickhouse/location.js";
import { readRealStores } from "../store/real-stores.js";
import { loadValidStore, oneStore, type Progress } from "./commands.js";
import { UsageError } from "./errors.js";
import { choiceOption, intOption, type Parsed } from "./options.js";
import { lockOut, removeLeftovers } from "./site-guard.js";
import { buildSite, frameContentHash, previewSite, REPO, SITE_MARKER, vendorModules } from "./site.js";
import type { Io } from "./terminal.js";
import { checkWriteTarget } from "./write-guard.js";

/**
 * `gcpc site STORE --out DIR | --preview`: the store read (with the judge's evidence) and analysed once, its data
 * files zipped, and Framework's build run in a workspace keyed by the store's content (cli/site.ts).
 */
export async function siteCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  const dir = oneStore("site", positionals);
  const out = values.out as string | undefined;
  const preview = values.preview === true;
  if (!out && !preview) throw new UsageError("site needs --out DIR (or --preview)");
  if (out && preview) throw new UsageError("--preview serves the pages live and writes no --out");
  if (values.port !== undefined && !preview) throw new UsageError("--port applies to --preview");
  const port = values.port === undefined ? undefined : intOption("port", values.port, 3000, 1);
  const seed = intOption("seed", values.seed, DEFAULT_SETTINGS.seed);
  if (out) checkWriteTarget(out, { kind: "site", inputs: [dir], siteMarker: SITE_MARKER });
  const cacheBase = resolve((values.cache as string | undefined) ?? resolve(REPO, ".site-cache"));
  checkWriteTarget(cacheBase, { kind: "cache", inputs: [dir] });
  const interval = choiceOption("interval", values.interval, INTERVAL_METHODS, "percentile");
  // --order FILE: the History page's order of versions (the arm, then its date or version; cli/history-command.ts).
  const orderPath = values.order === undefined ? undefined : String(values.order);
  if (orderPath !== undefined && !existsSync(orderPath)) throw new UsageError(`--order ${orderPath}: no such file`);
  const order =
    orderPath === undefined
      ? undefined
      : { order: orderFile(orderPath), source: `the order of ${basename(orderPath)}` };
  const vendor = vendorModules(cacheBase);
  // The explorer shows the judge's evidence beside each label: the site reads it too.
  const { store } = await loadValidStore(dir, values, io, progress, { evidence: true }).catch(async (e) => {
    await vendor.catch(() => {}); // no bundle left half-written in the cache
    throw e;
  });
  const settings = { ...DEFAULT_SETTINGS, seed, interval };
  const capabilities = siteCapabilities(store, {
    ownData: resolve(dir).startsWith(join(REPO, "data") + sep),
    order: order !== undefined,
  });
  const build = {
    store: dir,
    ...(isClickhouseLocation(dir) ? { storeHash: frameContentHash(store) } : {}),
    cacheBase,
    seed,
    interval,
    ...(order ? { orderHash: createHash("sha256").update(readFileSync(orderPath!)).digest("hex") } : {}),
    storeName: store.manifest.name,
    pages: capabilities.filter((c) => c.shown).map((c) => ({ name: c.name, path: c.path })),
    vendor,
    onProgress: progress,
    archive: async () => {
      progress("preparing store");
      const prepared = prepareStore(store);
      const analysis = analyzePrepared(prepared, settings, { perTrajectory: true, onProgress: progress });
      // Through JSON, as the pages read it from the archive.
      const report = JSON.parse(JSON.stringify(analysis));
      progress("writing the site's data files");
      return siteArchive(report, prepared, await readRealStores(REPO), capabilities, order);
    },
  };
  if (!out) return previewSite({ ...build, port });
  // One build at a time into one --out (a live owner's lock is refused, a dead one's taken over), and what
  // an interrupted build left beside it is removed first.
  const release = lockOut(out);
  for (const dir of removeLeftovers(out)) progress(`removed ${dir}, left by an interrupted build`);
  const { workspace, cached } = await buildSite({ ...build, out }).finally(release);
  io.out(
    `built the site for "${store.manifest.name}"${store.manifest.synthetic ? " (SYNTHETIC)" : ""} in ${out} ` +
      `(cache ${workspace}${cached ? ", analysis reused" : ""})\n`,
  );
  return 0;
}
