import type { ClickHouseClient, ClickHouseSettings } from "@clickhouse/client";
import { InputError } from "../problems.js";
import { RowBinaryPieces, rowBinary, rowsOf, type BinaryColumn, type RowReader } from "./row-binary.js";
import { streamedPost } from "./streamed-post.js";
import type { ClickhouseLocation } from "./location.js";

/**
 * One HTTP connection to a ClickHouse server (@clickhouse/client), with the few calls the store needs and
 * every server or network error turned into a one-line InputError naming the location. Statements keep to
 * SQL that ClickHouse 18.16 (Debian's package) and current servers both accept, and send no setting the old
 * server does not know (docs/scaling.md lists the subset).
 */
/**
 * How long one request may wait for the server (ms): `--timeout SECONDS` on the command line sets it for the
 * process (cli/main.ts). A server that accepts connections and never answers made every command hang silently
 * for the client's 10 minutes (issue 57.3).
 */
export const CLICKHOUSE_TIMEOUT_MS = 300_000;
export const clickhouseRequest = { timeoutMs: CLICKHOUSE_TIMEOUT_MS };

/**
 * The bytes of every answer this process received from ClickHouse, and how many answers: `GCPC_CLICKHOUSE_BYTES=1`
 * prints them when the process exits (the arms bench reads them: issue 57.5 asks how many bytes travel).
 */
export const answerBytes = {
  bytes: 0,
  answers: 0,
  add(n: number) {
    if (this.answers++ === 0 && process.env.GCPC_CLICKHOUSE_BYTES === "1")
      process.once("exit", () =>
        process.stderr.write(`gcpc: ${this.bytes} bytes from ClickHouse in ${this.answers} answers\n`),
      );
    this.bytes += n;
  },
};

export class ClickhouseConnection {
  private clientMade?: Promise<ClickHouseClient>;
  private readonly timeoutMs = clickhouseRequest.timeoutMs;
  /** The request time-out in seconds (what ON CLUSTER statements may wait for every host). */
  get timeoutSeconds(): number {
    return this.timeoutMs / 1000;
  }

  /** Settings every read (a SELECT) of this connection sends beside its own (read-threads.ts: max_threads). */
  readSettings: Record<string, number> = {};

  constructor(readonly location: ClickhouseLocation) {}

  /**
   * The client of the JSON reads and the statements, made at its first use: its package is loaded then, not at
   * every command's start (a folder's commands never use it).
   */
  private client(): Promise<ClickHouseClient> {
    this.clientMade ??= import("@clickhouse/client").then(({ createClient, ClickHouseLogLevel }) =>
      createClient({
        url: this.location.url,
        // The client logs every failed request to the console itself; the caller reports them instead.
        log: { level: ClickHouseLogLevel.OFF },
        request_timeout: this.timeoutMs,
        // An idle socket is closed well before the server's keep-alive (3 s on ClickHouse before 23.11, the
        // client's 2.5 s default left 0.5 s): a socket the server had closed was reused under load, and the read
        // failed with ECONNRESET with both servers up (issue 57.3).
        keep_alive: { idle_socket_ttl: 1000, eagerly_destroy_stale_sockets: true },
      }),
    );
    return this.clientMade;
  }

  /** Rows of a SELECT, as JSON objects (64-bit integers arrive as strings: read them with Number). */
  rows<T = Record<string, unknown>>(query: string, settings?: ClickHouseSettings): Promise<T[]> {
    return this.retriedRead(query, async () => {
      const result = await (await this.client()).query({
        query,
        format: "JSONEachRow",
        clickhouse_settings: { ...this.readSettings, ...settings },
      });
      const text = await result.text();
      answerBytes.add(Buffer.byteLength(text, "utf8"));
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line)) as T[];
    });
  }

  /**
   * Rows of a SELECT read as RowBinary and decoded by `columns` (the SELECT's columns, in order, with their
   * types): a fraction of JSON's bytes, every number exactly as stored (row-binary.ts rowsOf).
   */
  binaryRows(query: string, columns: readonly BinaryColumn[], settings: Record<string, string | number> = {}) {
    return this.binaryRead(
      query,
      () => {
        const rows: Record<string, unknown>[] = [];
        return { read: rowsOf(columns, rows), result: () => rows };
      },
      settings,
    );
  }

  /**
   * A SELECT's RowBinary answer decoded row by row as it arrives (streamed-post.ts, row-binary.ts RowBinaryPieces):
   * `start` makes the decoder, again when a broken read is retried; its `result` once the answer is complete.
   * An error the decoder throws is passed on as it is.
   */
  binaryRead<T>(
    query: string,
    start: () => { read: RowReader; result: () => T },
    settings: Record<string, string | number> = {},
  ): Promise<T> {
    return this.retriedRead(query, async () => {
      const decoder = start();
      const pieces = new RowBinaryPieces(decoder.read);
      await this.streamed(query, settings, (bytes) => pieces.push(bytes));
      pieces.end();
      return decoder.result();
    });
  }

  /** The RowBinary answer of a SELECT, undecoded (for answers of fixed-width rows, read whole). */
  binaryBody(query: string, settings: Record<string, string | number> = {}): Promise<Buffer> {
    return this.retriedRead(query, async () => {
      const parts: Buffer[] = [];
      await this.streamed(query, settings, (bytes) => parts.push(Buffer.from(bytes)));
      return Buffer.concat(parts);
    });
  }

  /**
   * A SELECT (in FORMAT RowBinary) streamed to `piece`; the query travels as the body (a URL has a length limit;
   * the body has max_query_size). An error `piece` throws comes back as a DecodeFailure.
   */
  private async streamed(query: string, settings: Record<string, string | number>, piece: (b: Buffer) => void) {
    let failure: DecodeFailure | undefined;
    await this.post({ ...this.readSettings, ...settings }, Buffer.from(`${query} FORMAT RowBinary`, "utf8"), (b) => {
      try {
        piece(b);
      } catch (e) {
        failure = new DecodeFailure(e);
        throw failure;
      }
    }).catch((e) => {
      throw failure ?? e;
    });
  }

  /**
   * A read, retried once when the connection broke under it (nothing was changed by a SELECT); a second failure
   * says that it was the retry's.
   */
  private async retriedRead<T>(query: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (e instanceof DecodeFailure) throw e.error;
      if (!(isReset(e) && /^\s*(SELECT|WITH|SHOW|DESCRIBE|EXISTS)\b/i.test(query))) throw await this.explain(e, query);
      try {
        return await read();
      } catch (again) {
        if (again instanceof DecodeFailure) throw again.error;
        const f = await this.explain(again, query);
        throw new InputError(`${f.message} (a read retried once after ${(e as { code?: string }).code ?? "a reset"})`);
      }
    }
  }

  /** A statement with no result rows (CREATE, RENAME, DROP). */
  async command(query: string, settings?: ClickHouseSettings): Promise<void> {
    try {
      await (await this.client()).command({ query, clickhouse_settings: settings });
    } catch (e) {
      throw await this.explain(e, query);
    }
  }

  /** Rows inserted as JSONEachRow. */
  async insert(table: string, values: readonly Record<string, unknown>[], settings?: ClickHouseSettings) {
    try {
      await (await this.client()).insert({
        table,
        values: values as Record<string, unknown>[],
        format: "JSONEachRow",
        clickhouse_settings: settings,
      });
    } catch (e) {
      throw await this.explain(e, `INSERT INTO ${table}`);
    }
  }

  /**
   * Rows inserted as RowBinary (row-binary.ts): every number as its IEEE 754 bytes, so a double arrives exactly
   * (the text formats went through ClickHouse 18.16's parser, which is not correctly rounded). Sent over the same
   * HTTP interface, with the same time-out and one-line errors.
   */
  async insertRowBinary(
    table: string,
    columns: readonly BinaryColumn[],
    values: readonly Record<string, unknown>[],
    settings: Record<string, string | number> = {},
  ): Promise<void> {
    const query = `INSERT INTO ${table} (${columns.map((c) => `\`${c.name}\``).join(", ")}) FORMAT RowBinary`;
    try {
      await this.post({ query, ...settings }, rowBinary(columns, values));
    } catch (e) {
      throw await this.explain(e, `INSERT INTO ${table}`);
    }
  }

  /**
   * One POST to the server's HTTP interface (settings, and the query of an INSERT, in the URL; `body` the data, or
   * the query of a read), its answer streamed to `piece` (streamed-post.ts: a connection per request, so no idle
   * socket is reused after ClickHouse closed it); an answer other than 200 fails with the server's text. Bounded by
   * the request time-out.
   */
  private async post(params: Record<string, string | number>, body: Buffer, piece: (b: Buffer) => void = () => {}) {
    const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    const { host, port } = this.location;
    answerBytes.add(await streamedPost({ host, port, path: `/?${search}`, body, timeoutMs: this.timeoutMs }, piece));
  }

  /** Whether the server answers at all: an unreachable one is one line, not a retry loop. */
  async reach(): Promise<void> {
    await this.rows("SELECT 1 AS ok");
  }

  close(): Promise<void> {
    return this.clientMade ? this.clientMade.then((c) => c.close()) : Promise.resolve();
  }

  /**
   * The error as one line; a shard that did not answer is named with its cluster and shard number and the cause
   * (ClickHouse's "All connection tries failed. Log:" puts them on the lines the first-line rule would cut).
   */
  private async explain(e: unknown, what: string): Promise<InputError> {
    const message = String((e as { message?: string }).message ?? e);
    if (!/All connection tries failed/.test(message)) return this.failure(e, what);
    const tries = [...message.matchAll(/Exception: (.+?) \(([^()\s]+:\d+)\)/g)].map((m) => ({ cause: m[1], at: m[2] }));
    const shards = await this.client()
      .then((c) =>
        c.query({ query: "SELECT cluster, shard_num, host_address, port FROM system.clusters", format: "JSONEachRow" }),
      )
      .then((r) => r.json<{ cluster: string; shard_num: number; host_address: string; port: number }>())
      .catch(() => []);
    const named = [...new Set(tries.map((t) => t.at))].map((at) => {
      const causes = [...new Set(tries.filter((t) => t.at === at).map((t) => t.cause))].join("; ");
      const count = tries.filter((t) => t.at === at).length;
      const shard = shards.filter((c) => `${c.host_address}:${c.port}` === at);
      const which = shard.length
        ? shard.map((c) => `shard ${c.shard_num} of cluster ${c.cluster}`).join(", ")
        : "a shard";
      return `${which} (${at}) did not answer: ${causes} (${count} ${count === 1 ? "try" : "tries"})`;
    });
    return new InputError(
      `${this.location.text}: ` +
        (named.length ? named.join("; ") : "a shard did not answer (ClickHouse gave no address)"),
    );
  }

  private failure(e: unknown, what: string): InputError {
    const err = e as { code?: string; message?: string };
    if (/timeout/i.test(String(err.message ?? "")) && err.code !== "ETIMEDOUT") {
      const flat = what.replace(/\s+/g, " ").trim();
      const statement = flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
      return new InputError(
        `${this.location.text}: ClickHouse at ${this.location.url} did not answer within ` +
          `${this.timeoutMs / 1000} s (waiting for: ${statement}); --timeout SECONDS waits longer`,
      );
    }
    const network = ["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ECONNRESET", "ETIMEDOUT", "EAI_AGAIN"];
    if (err.code && network.includes(err.code))
      return new InputError(`${this.location.text}: cannot reach ClickHouse at ${this.location.url} (${err.code})`);
    // The server's own message, first line only, without its "e.what() = DB::Exception" tail.
    const text = String(err.message ?? e)
      .split("\n")[0]
      .replace(/, e\.what\(\) = DB::Exception\s*$/, "");
    return new InputError(`${this.location.text}: ClickHouse said: ${text}`);
  }
}

/** An error of the decoder an answer was streamed to: not the server's or the network's, so passed on as it is. */
class DecodeFailure extends Error {
  constructor(readonly error: unknown) {
    super(String((error as { message?: string }).message ?? error));
  }
}

/** A connection that broke under a request (the server or the network closed it). */
function isReset(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err.code === "ECONNRESET" || err.code === "EPIPE" || /socket hang up/i.test(String(err.message ?? ""));
}

/** A string as a ClickHouse SQL literal (backslash and quote escaped: ClickHouse reads backslash escapes). */
export const sqlString = (s: string): string => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
