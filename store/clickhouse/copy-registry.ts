// Which copy staged which tables, so that a later copy can drop what a killed one left (issue 57.1: killed copies
// left `_stage_*` tables forever). Each copy writes one row to `_gcpc_copies` in the target database (on a cluster,
// the connected server's): its token, and the machine and process it ran as. A copy is provably dead only when it
// ran on this machine, since its last boot, as a process that is no longer there (its pid gone, or reused by a
// process started at another time). A copy from another machine is never presumed dead: its tables are named and
// left.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

export const REGISTRY_TABLE = "_gcpc_copies";

export const REGISTRY_COLUMNS: [string, string][] = [
  ["token", "String"],
  ["host", "String"],
  ["boot", "String"],
  ["pid", "UInt64"],
  ["started", "String"],
];

export interface CopyProcess {
  token: string;
  host: string;
  /** This boot's id (/proc/sys/kernel/random/boot_id), "" where the system has none. */
  boot: string;
  pid: number;
  /** The process's start time in clock ticks after boot (/proc/PID/stat, field 22), "" where unknown. */
  started: string;
}

const read = (path: string): string => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

/** A process's start time after boot: field 22 of /proc/PID/stat, counted after the command's closing parenthesis. */
function startTime(pid: number): string {
  const stat = read(`/proc/${pid}/stat`);
  const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return after[19] ?? "";
}

/** This process as a registry row. */
export function thisCopy(token: string): CopyProcess {
  return {
    token,
    host: hostname(),
    boot: read("/proc/sys/kernel/random/boot_id").trim(),
    pid: process.pid,
    started: startTime(process.pid),
  };
}

/** Whether the copy is provably no longer running; else why it may still be. */
export function deadOrWhy(c: CopyProcess): true | string {
  const here = thisCopy(c.token);
  if (c.host !== here.host) return `it ran on ${c.host}, not this machine`;
  if (!c.boot || !here.boot) return "this system names no boot to compare";
  if (c.boot !== here.boot) return true; // this machine has restarted since
  if (!c.started) return "its start time was not recorded";
  try {
    process.kill(c.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return true;
    return `process ${c.pid} cannot be checked`;
  }
  return startTime(c.pid) === c.started ? `process ${c.pid} still runs` : true;
}
