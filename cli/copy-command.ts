import { existsSync } from "node:fs";
import { readStore } from "../store/read-store.js";
import { storeRows } from "../store/import/merge-store.js";
import { isClickhouseLocation, parseClickhouseLocation } from "../store/clickhouse/location.js";
import { copyToClickhouse } from "../store/clickhouse/copy-store.js";
import { stripControl } from "../report/strip-control.js";
import { UsageError } from "./errors.js";
import { intOption, type Parsed } from "./options.js";
import type { Io } from "./terminal.js";
import type { Progress } from "./commands.js";

/**
 * `gcpc copy STORE clickhouse://HOST:PORT/DATABASE [--cluster NAME] [--into]`: a store folder's tables written
 * into a ClickHouse database (store/clickhouse/copy-store.ts), after the folder is validated as every command
 * validates it. The folder is only read.
 */
export async function copyCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 2)
    throw new UsageError("copy takes a store folder and a clickhouse://HOST:PORT/DATABASE (try gcpc help copy)");
  const [dir, target] = positionals;
  if (isClickhouseLocation(dir)) throw new UsageError("copy reads a store folder (the first argument)");
  if (!isClickhouseLocation(target))
    throw new UsageError(`copy writes to clickhouse://HOST:PORT/DATABASE; got "${target}"`);
  const location = parseClickhouseLocation(target);
  // ClickHouse's own databases hold its state: a store written there would sit among (or replace) its tables.
  if (["system", "information_schema"].includes(location.database.toLowerCase()))
    throw new UsageError(`${target}: database "${location.database}" is ClickHouse's own; copy into another database`);
  if (!existsSync(dir)) throw new UsageError(`${dir}: no such file or directory`);
  const cluster = values.cluster === undefined ? undefined : String(values.cluster);
  if (cluster !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(cluster))
    throw new UsageError(`--cluster must be a cluster name (letters, digits, _), got "${cluster}"`);
  progress(`validating ${dir}`);
  const { store: frame } = await readStore(dir, {
    maxProblems: intOption("max-problems", values["max-problems"], 50, 1),
    onProgress: progress,
  });
  progress(`reading ${dir}'s rows`);
  const { store } = await storeRows(dir, { csv: true });
  const summary = await copyToClickhouse(store, location, {
    cluster,
    into: values.into === true,
    onProgress: progress,
  });
  const name = stripControl(frame.manifest.name);
  const rows = Object.entries(summary.rows)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
  io.out(`copied "${name}" to ${target}${summary.merged ? " (merged into the store there)" : ""}: ${rows} rows\n`);
  if (summary.merged) {
    const added = Object.entries(summary.merged.added)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n}`);
    io.out(`  added: ${added.join(", ") || "nothing (every row was already there)"}\n`);
  }
  const engine = summary.engines.judgments;
  if (engine) io.out(`  judgments: ${engine}${cluster ? ` over ${cluster}, sharded by task` : ""}\n`);
  return 0;
}
