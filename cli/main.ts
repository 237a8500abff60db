import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./repo-root.js";
import { HELP } from "./help.js";
import { parseCommand } from "./options.js";
import { UsageError, userMessage } from "./errors.js";
import { processIo, progressReporter, type Io } from "./terminal.js";
import { generateCommand, importCommand, reportCommand, validateCommand } from "./commands.js";
import { siteCommand } from "./site-command.js";
import { powerCommand } from "./power-command.js";
import {
  compareCommand,
  consensusCommand,
  itemsCommand,
  judgesCommand,
  leaderboardCommand,
  pointsCommand,
} from "./arms-command.js";
import { copyCommand } from "./copy-command.js";
import { gateCommand } from "./gate-command.js";
import { CLICKHOUSE_TIMEOUT_MS, clickhouseRequest } from "../store/clickhouse/connection.js";
import { historyCommand } from "./history-command.js";

const COMMANDS = {
  validate: validateCommand,
  report: reportCommand,
  site: siteCommand,
  generate: generateCommand,
  import: importCommand,
  power: powerCommand,
  compare: compareCommand,
  leaderboard: leaderboardCommand,
  judges: judgesCommand,
  items: itemsCommand,
  points: pointsCommand,
  consensus: consensusCommand,
  gate: gateCommand,
  history: historyCommand,
  copy: copyCommand,
};

function version(): string {
  return JSON.parse(readFileSync(join(repoRoot(), "package.json"), "utf8")).version;
}

/**
 * The whole CLI as a function of argv: returns the exit code (0 ok, 1 a bug, 2 the user's
 * input or usage). User errors are one line on stderr, never a stack trace.
 */
export async function runCli(argv: string[], io: Io): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === "--version" || command === "-V") {
      io.out(`gcpc ${version()}\n`);
      return 0;
    }
    if (command === "--help" || command === "-h") {
      io.out(`${HELP.main}\n`);
      return 0;
    }
    if (!command) {
      io.err(`${HELP.main}\n`);
      return 2;
    }
    if (command === "help") {
      if (rest.length === 0) {
        io.out(`${HELP.main}\n`);
        return 0;
      }
      if (rest.length > 1 || !(rest[0] in COMMANDS))
        throw new UsageError(`no help for "${rest.join(" ")}": commands are ${Object.keys(COMMANDS).join(", ")}`);
      io.out(`${HELP[rest[0]]}\n`);
      return 0;
    }
    if (!(command in COMMANDS)) throw new UsageError(`unknown command "${command}" (try gcpc --help)`);
    if (rest.includes("--help") || rest.includes("-h")) {
      io.out(`${HELP[command]}\n`);
      return 0;
    }
    const parsed = parseCommand(command, rest);
    // Per command run (a test runs many in one process): the default unless --timeout says otherwise.
    clickhouseRequest.timeoutMs = CLICKHOUSE_TIMEOUT_MS;
    if (parsed.values.timeout !== undefined) {
      const seconds = Number(parsed.values.timeout);
      if (!(typeof parsed.values.timeout === "string" && Number.isFinite(seconds) && seconds > 0))
        throw new UsageError(`--timeout must be a number of seconds > 0, got "${String(parsed.values.timeout)}"`);
      clickhouseRequest.timeoutMs = seconds * 1000;
    }
    return await COMMANDS[command as keyof typeof COMMANDS](parsed, io, progressReporter(io));
  } catch (e) {
    const message = userMessage(e);
    if (message !== undefined) {
      io.err(`gcpc: ${message}\n`);
      return 2;
    }
    io.err(`gcpc: internal error (please report it): ${(e as Error)?.stack ?? e}\n`);
    return 1;
  }
}

/** Runs the CLI on this process's argv and streams (bin/gcpc.js, `npm run gcpc`). */
export function mainProcess(): void {
  // A closed pipe (`gcpc report … | head`) is not an error: stop quietly.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
  runCli(process.argv.slice(2), processIo()).then((code) => {
    process.exitCode = code;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) mainProcess();
