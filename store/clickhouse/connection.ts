import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseSettings } from "@clickhouse/client";
import { InputError } from "../problems.js";
import type { ClickhouseLocation } from "./location.js";

/**
 * One HTTP connection to a ClickHouse server (@clickhouse/client), with the few calls the store needs and
 * every server or network error turned into a one-line InputError naming the location. Statements keep to
 * SQL that ClickHouse 18.16 (Debian's package) and current servers both accept, and send no setting the old
 * server does not know (docs/scaling.md lists the subset).
 */
export class ClickhouseConnection {
  private readonly client: ClickHouseClient;

  constructor(readonly location: ClickhouseLocation) {
    // The client logs every failed request to the console itself; the caller reports them instead.
    this.client = createClient({
      url: location.url,
      log: { level: ClickHouseLogLevel.OFF },
      request_timeout: 600_000,
    });
  }

  /** Rows of a SELECT, as JSON objects (64-bit integers arrive as strings: read them with Number). */
  async rows<T = Record<string, unknown>>(query: string, settings?: ClickHouseSettings): Promise<T[]> {
    try {
      const result = await this.client.query({ query, format: "JSONEachRow", clickhouse_settings: settings });
      return (await result.json()) as T[];
    } catch (e) {
      throw this.failure(e);
    }
  }

  /** A statement with no result rows (CREATE, RENAME, DROP). */
  async command(query: string, settings?: ClickHouseSettings): Promise<void> {
    try {
      await this.client.command({ query, clickhouse_settings: settings });
    } catch (e) {
      throw this.failure(e);
    }
  }

  /** Rows inserted as JSONEachRow. */
  async insert(table: string, values: readonly Record<string, unknown>[], settings?: ClickHouseSettings) {
    try {
      await this.client.insert({
        table,
        values: values as Record<string, unknown>[],
        format: "JSONEachRow",
        clickhouse_settings: settings,
      });
    } catch (e) {
      throw this.failure(e);
    }
  }

  /** Whether the server answers at all: an unreachable one is one line, not a retry loop. */
  async reach(): Promise<void> {
    await this.rows("SELECT 1 AS ok");
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private failure(e: unknown): InputError {
    const err = e as { code?: string; message?: string };
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

/** A string as a ClickHouse SQL literal (backslash and quote escaped: ClickHouse reads backslash escapes). */
export const sqlString = (s: string): string => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
