import { stripControl } from "../report/strip-control.js";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal: progress lines are shown. */
  progressTty: boolean;
}

/** The process's streams; text for a terminal is stripped of control characters. */
export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(process.stdout.isTTY ? stripControl(text) : text),
    err: (text) => void process.stderr.write(stripControl(text)),
    progressTty: Boolean(process.stderr.isTTY) || process.env.GCPC_PROGRESS === "1",
  };
}

/**
 * Progress on stderr for long steps, only when stderr is a terminal (or GCPC_PROGRESS=1):
 * each line says the step, its counts and the time since the command started.
 */
export function progressReporter(io: Io): (step: string) => void {
  const start = Date.now();
  if (!io.progressTty) return () => {};
  return (step) => io.err(`gcpc [${((Date.now() - start) / 1000).toFixed(1)} s] ${step}\n`);
}
