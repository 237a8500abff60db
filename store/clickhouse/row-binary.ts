// ClickHouse's RowBinary input format for the column types a store's tables use (table-layout.ts): numbers leave
// as their IEEE 754 bytes, so a double arrives exactly as it left. The text formats did not: ClickHouse 18.16's
// text parser is not correctly rounded (issue 57.2: 35 of 200,006 random doubles came back one step off, and
// 5e-324 became 0). @clickhouse/client sends no RowBinary, so the bytes are written here
// (https://clickhouse.com/docs/en/interfaces/formats#rowbinary: little-endian fixed-width numbers, a string as its
// LEB128 length and UTF-8 bytes, a Nullable as a 1-byte null flag before the value when there is one).

/** A column as RowBinary encodes it. */
export interface BinaryColumn {
  name: string;
  type: "String" | "Int64" | "UInt64" | "Float64" | "UInt8";
  nullable: boolean;
}

/** The column type of a ClickHouse definition such as `Nullable(Float64)`. */
export function binaryColumn(name: string, definition: string): BinaryColumn {
  const m = /^(Nullable\()?(String|Int64|UInt64|Float64|UInt8)\)?$/.exec(definition.trim());
  if (!m) throw new Error(`row-binary: no encoding for column ${name} of type ${definition}`);
  return { name, type: m[2] as BinaryColumn["type"], nullable: m[1] !== undefined };
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
