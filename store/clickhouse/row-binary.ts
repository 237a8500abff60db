// ClickHouse's RowBinary input format for the column types a store's tables use (table-layout.ts): numbers leave
// as their IEEE 754 bytes, so a double arrives exactly as it left. The text formats did not: ClickHouse 18.16's
// text parser is not correctly rounded (issue 57.2: 35 of 200,006 random doubles came back one step off, and
// 5e-324 became 0). @clickhouse/client sends no RowBinary, so the bytes are written here
// (https://clickhouse.com/docs/en/interfaces/formats#rowbinary: little-endian fixed-width numbers, a string as its
// LEB128 length and UTF-8 bytes, a Nullable as a 1-byte null flag before the value when there is one).

import type { InternedText } from "./interned-text.js";

/** A column as RowBinary encodes it. */
export interface BinaryColumn {
  name: string;
  type: "String" | "Int64" | "UInt64" | "UInt32" | "Float64" | "UInt8";
  nullable: boolean;
  /** Array(T) of the type (read only: a copy writes no arrays). */
  array?: boolean;
}

/** The column type of a ClickHouse definition such as `Nullable(Float64)` or `Array(Nullable(String))`. */
export function binaryColumn(name: string, definition: string): BinaryColumn {
  const m = /^(Array\()?(Nullable\()?(String|Int64|UInt64|UInt32|Float64|UInt8)(\)*)$/.exec(definition.trim());
  if (!m || m[4].length !== Number(m[1] !== undefined) + Number(m[2] !== undefined))
    throw new Error(`row-binary: no encoding for column ${name} of type ${definition}`);
  return { name, type: m[3] as BinaryColumn["type"], nullable: m[2] !== undefined, array: m[1] !== undefined };
}

/** Rows (every column present; null where absent) as one RowBinary body. */
export function rowBinary(columns: readonly BinaryColumn[], rows: readonly Record<string, unknown>[]): Buffer {
  const parts: Buffer[] = [];
  let fixed = Buffer.alloc(1 << 16);
  let at = 0;
  const room = (n: number) => {
    if (at + n <= fixed.length) return;
    parts.push(fixed.subarray(0, at));
    fixed = Buffer.alloc(Math.max(1 << 16, n));
    at = 0;
  };
  for (const c of columns) if (c.array) throw new Error(`row-binary: no encoding for the array column ${c.name}`);
  for (const row of rows)
    for (const c of columns) {
      const v = row[c.name];
      if (c.nullable) {
        room(1);
        fixed[at++] = v === null || v === undefined ? 1 : 0;
        if (v === null || v === undefined) continue;
      } else if (v === null || v === undefined) throw new Error(`row-binary: column ${c.name} is not nullable`);
      switch (c.type) {
        case "Float64":
          room(8);
          fixed.writeDoubleLE(v as number, at);
          at += 8;
          break;
        case "Int64":
          room(8);
          fixed.writeBigInt64LE(BigInt(v as number), at);
          at += 8;
          break;
        case "UInt64":
          room(8);
          fixed.writeBigUInt64LE(BigInt(v as number), at);
          at += 8;
          break;
        case "UInt32":
          room(4);
          fixed.writeUInt32LE(Number(v), at);
          at += 4;
          break;
        case "UInt8":
          room(1);
          fixed[at++] = Number(v);
          break;
        case "String": {
          const bytes = Buffer.from(String(v), "utf8");
          room(10 + bytes.length);
          for (let n = bytes.length; ; ) {
            const low = n & 0x7f;
            n = Math.floor(n / 128);
            fixed[at++] = n > 0 ? low | 0x80 : low;
            if (n === 0) break;
          }
          bytes.copy(fixed, at);
          at += bytes.length;
          break;
        }
      }
    }
  parts.push(fixed.subarray(0, at));
  return Buffer.concat(parts);
}

/** Decodes one row at a cursor; it keeps nothing of the row until the row's last value is read. */
export type RowReader = (cursor: Cursor) => void;

/**
 * A RowBinary body (a `SELECT … FORMAT RowBinary` answer) decoded by its columns: numbers exactly as stored,
 * Int64 and UInt64 as numbers (as JSON's text gives them after Number()), null where a Nullable is null, an
 * Array(T) (LEB128 length, then its elements) as a JavaScript array. A read in RowBinary is a fraction of
 * JSONEachRow's bytes (no key names, a null one byte) and needs no text parsing.
 */
export function fromRowBinary(columns: readonly BinaryColumn[], body: Buffer): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const pieces = new RowBinaryPieces(rowsOf(columns, rows));
  pieces.push(body);
  pieces.end();
  return rows;
}

/** A RowReader putting each row, as an object by column name, into `rows`. */
export function rowsOf(columns: readonly BinaryColumn[], rows: Record<string, unknown>[]): RowReader {
  return (cursor) => {
    const row: Record<string, unknown> = {};
    for (const c of columns) {
      if (!c.array) {
        row[c.name] = cursor.value(c);
        continue;
      }
      const n = cursor.length(c);
      if (n === 0) {
        // One shared empty array (frozen): label runs carry three arrays each, most of them empty.
        row[c.name] = EMPTY;
        continue;
      }
      const list = new Array<unknown>(n);
      for (let k = 0; k < n; k++) list[k] = cursor.value(c);
      row[c.name] = list;
    }
    rows.push(row);
  };
}

const EMPTY: readonly unknown[] = Object.freeze([]);

/**
 * The answer ended inside a value: thrown by Cursor (which notes the column in `cutIn`), caught by RowBinaryPieces
 * to wait for the next piece. One object, made once: an Error made at every cut piece cost its stack each time.
 */
const CUT = new Error("row-binary: the answer ends inside a value");

/**
 * An answer decoded piece by piece as it arrives (connection.ts streams it): every complete row of a piece is read
 * in place, and a row cut by the piece's end is carried (copied: the piece's bytes are the socket's and are
 * overwritten after the call) and completed from the next piece. Holding the whole answer first cost this process
 * a fresh buffer of its size (at scale 100, 129 MB whose first touch alone took about 0.4 s here) and a copy.
 */
export class RowBinaryPieces {
  private carry: Buffer | undefined;
  constructor(private readonly read: RowReader) {}

  /** The next piece of the answer; its bytes are read during the call only. */
  push(piece: Buffer): void {
    let at = 0;
    while (this.carry !== undefined) {
      // The cut row, completed from the piece's start: a little of it at a time (at least as much again as is
      // carried, so a long row takes a few tries), not 64 KB of it: a cut row is usually a few hundred bytes, and
      // the 64 KB copy at every piece's start was Buffer.concat's 62 ms of a profiled scale-100 read.
      const carried = this.carry.length;
      const take = Math.min(piece.length - at, Math.max(1 << 10, carried));
      const joined = Buffer.concat([this.carry, piece.subarray(at, at + take)]);
      const cursor = new Cursor(joined);
      if (this.tryRow(cursor)) {
        at += cursor.offset - carried;
        this.carry = undefined;
      } else {
        this.carry = joined;
        at += take;
        if (at === piece.length) return;
      }
    }
    const cursor = new Cursor(piece);
    cursor.offset = at;
    while (cursor.offset < piece.length) {
      const start = cursor.offset;
      if (!this.tryRow(cursor)) {
        this.carry = Buffer.from(piece.subarray(start));
        return;
      }
    }
  }

  /** The answer's end: a row still cut is an error naming the column it ends inside. */
  end(): void {
    if (this.carry === undefined) return;
    const cursor = new Cursor(this.carry);
    if (!this.tryRow(cursor)) throw new Error(`row-binary: the answer ends inside column ${cursor.cutIn}`);
  }

  private tryRow(cursor: Cursor): boolean {
    try {
      this.read(cursor);
      return true;
    } catch (e) {
      if (e === CUT) return false;
      throw e;
    }
  }
}

/** A read position in a RowBinary body (a class, not closures: a read decodes millions of values). */
export class Cursor {
  offset = 0;
  /** The column a read ended inside (set when the body ends first). */
  cutIn = "";
  private readonly view: DataView;
  constructor(private readonly body: Buffer) {
    // Fixed-width numbers through a DataView (little-endian reads V8 compiles inline), not Buffer's read methods.
    this.view = new DataView(body.buffer, body.byteOffset, body.length);
  }

  /** The offset of the next `n` bytes, moved past them; CUT, noting the column, when the body ends first. */
  private take(n: number, c: BinaryColumn): number {
    const start = this.offset;
    if (start + n > this.body.length) {
      this.cutIn = c.name;
      throw CUT;
    }
    this.offset = start + n;
    return start;
  }

  /** A UInt32 column's value (not Nullable). */
  uint32(c: BinaryColumn): number {
    return this.view.getUint32(this.take(4, c), true);
  }

  /** A UInt8 column's value (not Nullable). */
  uint8(c: BinaryColumn): number {
    return this.body[this.take(1, c)];
  }

  /**
   * A UInt64 column's value (not Nullable) from its two 32-bit halves: hi · 2³² is exact and the one addition rounds
   * as Number(BigInt) does (to nearest, ties to even), without a BigInt a value.
   */
  uint64(c: BinaryColumn): number {
    const at = this.take(8, c);
    return this.view.getUint32(at + 4, true) * 4294967296 + this.view.getUint32(at, true);
  }

  /** An Int64 column's value (not Nullable), as uint64 reads it with the high half signed. */
  int64(c: BinaryColumn): number {
    const at = this.take(8, c);
    return this.view.getInt32(at + 4, true) * 4294967296 + this.view.getUint32(at, true);
  }

  /** A Float64 column's value (not Nullable). */
  float64(c: BinaryColumn): number {
    return this.view.getFloat64(this.take(8, c), true);
  }

  /** A LEB128 length (a string's bytes, an array's elements). */
  length(c: BinaryColumn): number {
    let length = 0;
    for (let shift = 1; ; shift *= 128) {
      const b = this.body[this.take(1, c)];
      length += (b & 0x7f) * shift;
      if (b < 0x80) return length;
    }
  }

  /**
   * One value of column `c` (its null flag first when it is Nullable); a String through `interned` when given (one
   * string per repeated value).
   */
  value(c: BinaryColumn, interned?: InternedText): unknown {
    const body = this.body;
    if (c.nullable && body[this.take(1, c)] === 1) return null;
    switch (c.type) {
      case "Float64":
        return this.float64(c);
      case "Int64":
        return this.int64(c);
      case "UInt64":
        return this.uint64(c);
      case "UInt32":
        return this.uint32(c);
      case "UInt8":
        return this.uint8(c);
      case "String": {
        const n = this.length(c);
        const start = this.take(n, c);
        return interned ? interned.text(body, start, n) : body.toString("utf8", start, start + n);
      }
    }
  }
}
