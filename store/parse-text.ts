import { csvParseRows } from "d3";
import type { Problem } from "./problems.js";

/** Raw record with its location, before schema validation. */
export interface RawRecord {
  values: Record<string, unknown>;
  line?: number;
  row?: number;
  /** Its pooled strings already are the pool's copies (store/parquet-rows.ts). */
  interned?: boolean;
}

/** Decodes UTF-8 strictly, naming the line of the first invalid byte sequence. */
export function decodeUtf8(bytes: Uint8Array, file: string): string | Problem {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Find the first offending line: decode line by line.
    let line = 1,
      start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(start, i));
        } catch {
          return { file, line, message: "invalid UTF-8 byte sequence" };
        }
        line++;
        start = i + 1;
      }
    }
    return { file, message: "invalid UTF-8 byte sequence" };
  }
}

/** One JSON object per line; blank lines are skipped. */
export function parseJsonl(text: string, file: string, problems: (p: Problem) => void): RawRecord[] {
  const out: RawRecord[] = [];
  const lines = text.split("\n");
  lines.forEach((raw, i) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      problems({ file, line: i + 1, message: `not valid JSON (${(e as Error).message})` });
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      problems({ file, line: i + 1, message: "expected a JSON object" });
      return;
    }
    out.push({ values: value as Record<string, unknown>, line: i + 1 });
  });
  return out;
}

/** Line (1-based) where an unclosed RFC 4180 quote opens, or undefined if quotes balance. */
export function unbalancedQuoteLine(text: string): number | undefined {
  let inQuote = false,
    line = 1,
    openedAt = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      if (inQuote && text[i + 1] === '"') {
        i++;
        continue;
      }
      inQuote = !inQuote;
      if (inQuote) openedAt = line;
    } else if (c === "\n") line++;
  }
  return inQuote ? openedAt : undefined;
}

/**
 * CSV with a header row (RFC 4180, parsed by d3-dsv). Cells stay strings; the
 * caller converts them by field type. Each record knows the file line it
 * starts on, counting newlines inside quoted cells.
 */
export function parseCsv(
  text: string,
  file: string,
  problems: (p: Problem) => void,
): { header: string[]; records: RawRecord[] } | undefined {
  const open = unbalancedQuoteLine(text);
  if (open !== undefined) {
    problems({ file, line: open, message: "unbalanced double quote: a quoted cell opened here is never closed" });
    return undefined;
  }
  const rows = csvParseRows(text.startsWith("\ufeff") ? text.slice(1) : text);
  if (rows.length === 0) {
    problems({ file, message: "no header row" });
    return undefined;
  }
  const header = rows[0];
  const records: RawRecord[] = [];
  let line = 1 + newlinesIn(rows[0]) + 1;
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r];
    const startLine = line;
    line += 1 + newlinesIn(cells);
    if (cells.length === 1 && cells[0] === "") continue; // blank line
    if (cells.length !== header.length) {
      problems({
        file,
        line: startLine,
        message: `expected ${header.length} cells (as in the header), found ${cells.length}`,
      });
      continue;
    }
    const values: Record<string, unknown> = {};
    for (const [k, h] of header.entries()) values[h] = cells[k];
    records.push({ values, line: startLine });
  }
  return { header, records };
}

function newlinesIn(cells: string[]): number {
  let n = 0;
  for (const c of cells) for (let i = 0; i < c.length; i++) if (c[i] === "\n") n++;
  return n;
}
