import { InputError } from "../problems.js";

/** A store held in a ClickHouse database: `clickhouse://HOST:HTTP_PORT/DATABASE` (HTTP interface, no TLS). */
export interface ClickhouseLocation {
  /** The location as the user wrote it (what messages name). */
  text: string;
  host: string;
  port: number;
  database: string;
  /** The server's HTTP address. */
  url: string;
}

const PREFIX = "clickhouse://";

/** Whether a store argument names a ClickHouse database rather than a folder. */
export const isClickhouseLocation = (s: string): boolean => s.startsWith(PREFIX);

/** ClickHouse's unquoted identifier rule: the database name is used as one in every statement. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The parts of a `clickhouse://` location; a malformed one is an InputError naming what is wrong. */
export function parseClickhouseLocation(text: string): ClickhouseLocation {
  const m = /^clickhouse:\/\/([^/:?#]+):(\d+)\/([^/?#]+)$/.exec(text);
  if (!m) throw new InputError(`${text}: a ClickHouse store is clickhouse://HOST:HTTP_PORT/DATABASE`);
  const [, host, portText, database] = m;
  const port = Number(portText);
  if (!(port >= 1 && port <= 65535)) throw new InputError(`${text}: port ${portText} is not a TCP port`);
  if (!IDENTIFIER.test(database))
    throw new InputError(`${text}: database "${database}" must be letters, digits and _ (not starting with a digit)`);
  // A host name is letters, digits, dots and hyphens (RFC 1123), or an IPv4 address: a space or another character
  // made the HTTP client throw with a stack trace (issue 57.3).
  if (!/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host))
    throw new InputError(`${text}: host "${host}" is not a host name or an IPv4 address`);
  return { text, host, port, database, url: `http://${host}:${port}` };
}
