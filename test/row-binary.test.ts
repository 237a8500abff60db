// RowBinary reads (store/clickhouse/row-binary.ts fromRowBinary) against the format's definition
// (https://clickhouse.com/docs/en/interfaces/formats#rowbinary), bytes written here by hand, and against the
// encoder the copy uses; the server's own answers are decoded in test/clickhouse-store.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { binaryColumn, fromRowBinary, rowBinary } from "../store/clickhouse/row-binary.js";

test("a hand-written RowBinary body: Nullable, Int64, UInt64, a LEB128 length over 127 and arrays", () => {
  const long = "é".repeat(100); // 200 UTF-8 bytes: the length is two LEB128 bytes, 0xC8 0x01
  const f64 = Buffer.alloc(8);
  f64.writeDoubleLE(-0);
  const body = Buffer.concat([
    Buffer.from([0xc8, 0x01]),
    Buffer.from(long, "utf8"),
    Buffer.from([1]), // Nullable(String): null
    Buffer.from([0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), // Int64 −2
    Buffer.from([0x2a, 0, 0, 0, 0, 0, 0, 0]), // UInt64 42
    Buffer.from([2]), // Array(Float64) of 2
    f64,
    Buffer.from([0, 0, 0, 0, 0, 0, 0xf0, 0x3f]), // 1.0
    Buffer.from([2, 0, 1, 0x61, 1]), // Array(Nullable(String)): "a", null
  ]);
  const columns = [
    binaryColumn("s", "String"),
    binaryColumn("n", "Nullable(String)"),
    binaryColumn("i", "Int64"),
    binaryColumn("u", "UInt64"),
    binaryColumn("g", "Array(Float64)"),
    binaryColumn("e", "Array(Nullable(String))"),
  ];
  const [row] = fromRowBinary(columns, body);
  assert.equal(row.s, long);
  assert.equal(row.n, null);
  assert.equal(row.i, -2);
  assert.equal(row.u, 42);
  assert.ok(Object.is((row.g as number[])[0], -0));
  assert.equal((row.g as number[])[1], 1);
  assert.deepEqual(row.e, ["a", null]);
});

test("what the copy's encoder writes decodes to the same rows, doubles bit for bit", () => {
  const columns = [
    binaryColumn("id", "String"),
    binaryColumn("x", "Nullable(Float64)"),
    binaryColumn("k", "Int64"),
    binaryColumn("b", "UInt8"),
  ];
  const values = [5e-324, -0, 1e300, 0.1 + 0.2, Number.MAX_VALUE, -2.2250738585072014e-308, null];
  const rows = values.map((x, k) => ({ id: `t${k}\t'"\\ ✓`, x, k: k - 3, b: k % 2 }));
  const back = fromRowBinary(columns, rowBinary(columns, rows));
  assert.equal(back.length, rows.length);
  back.forEach((r, k) => {
    assert.equal(r.id, rows[k].id);
    assert.ok(Object.is(r.x, rows[k].x), `row ${k}: ${r.x} vs ${rows[k].x}`);
    assert.equal(r.k, rows[k].k);
    assert.equal(r.b, rows[k].b);
  });
});

test("a body cut inside a value, and a type it does not decode, are errors naming the column", () => {
  const columns = [binaryColumn("id", "String"), binaryColumn("x", "Float64")];
  const body = rowBinary(columns, [{ id: "a", x: 1 }]);
  assert.throws(() => fromRowBinary(columns, body.subarray(0, body.length - 3)), /ends inside column x/);
  assert.throws(() => binaryColumn("d", "Decimal(9, 2)"), /no encoding for column d/);
  assert.throws(() => binaryColumn("d", "Nullable(String"), /no encoding for column d/);
});

test("storeOrder: rows 0 … n − 1 placed by value, anything else sorted (equal to a sort by value)", async () => {
  const { storeOrder } = await import("../store/clickhouse/row-order.js");
  assert.deepEqual(Array.from(storeOrder([2, 0, 3, 1])), [1, 3, 0, 2]);
  for (const rows of [[5, 1, 9], [0, 0, 1], [1, 2, 3], [0.5, 0, 2], []]) {
    const sorted = Array.from(rows.keys()).sort((a, b) => rows[a] - rows[b]);
    assert.deepEqual(Array.from(storeOrder(rows)), sorted, JSON.stringify(rows));
  }
});

test("64-bit integers decode as Number(BigInt) does, rounding included, past 2^53 and negative", () => {
  const columns = [binaryColumn("i", "Int64"), binaryColumn("u", "UInt64")];
  const patterns: bigint[] = [
    0n,
    1n,
    -1n,
    2n ** 53n + 1n,
    2n ** 53n + 3n,
    -(2n ** 53n) - 1n,
    2n ** 63n - 1n,
    -(2n ** 63n),
  ];
  let x = 0x9e3779b97f4a7c15n;
  for (let k = 0; k < 2000; k++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & (2n ** 64n - 1n);
    patterns.push(BigInt.asIntN(64, x >> BigInt(k % 40)));
  }
  const body = Buffer.alloc(16 * patterns.length);
  patterns.forEach((p, k) => {
    body.writeBigInt64LE(p, 16 * k);
    body.writeBigUInt64LE(BigInt.asUintN(64, p), 16 * k + 8);
  });
  const rows = fromRowBinary(columns, body);
  rows.forEach((r, k) => {
    assert.ok(Object.is(r.i, Number(patterns[k])), `Int64 ${patterns[k]}: ${r.i}`);
    assert.ok(Object.is(r.u, Number(BigInt.asUintN(64, patterns[k]))), `UInt64 of ${patterns[k]}: ${r.u}`);
  });
});

test("interned strings: the text of the bytes every time, through hash collisions and a column of distinct values", async () => {
  const { InternedText, bytesHash } = await import("../store/clickhouse/interned-text.js");
  // Two texts of one hash, found by search (30 bits: a collision among some 10^5 texts).
  const byHash = new Map<number, string>();
  let pair: [string, string] | undefined;
  for (let k = 0; !pair; k++) {
    const text = `task-${k}`;
    const bytes = Buffer.from(text);
    const h = bytesHash(bytes, 0, bytes.length);
    const other = byHash.get(h);
    if (other !== undefined) pair = [other, text];
    byHash.set(h, text);
  }
  const values = [...pair, "é✓", "", ...pair, "x".repeat(300), "é✓", ""];
  const column = [binaryColumn("s", "String")];
  const body = rowBinary(
    column,
    values.map((s) => ({ s })),
  );
  const interned = new InternedText();
  const { Cursor } = await import("../store/clickhouse/row-binary.js");
  const cursor = new Cursor(body);
  assert.deepEqual(
    values.map(() => cursor.value(column[0], interned)),
    values,
  );
  // A column of distinct values stops being looked up, and still decodes each.
  const ids = Array.from({ length: 10_000 }, (_, k) => `id-${k}`);
  const idBody = rowBinary(
    column,
    ids.map((s) => ({ s })),
  );
  const idCursor = new Cursor(idBody);
  const idText = new InternedText();
  assert.deepEqual(
    ids.map(() => idCursor.value(column[0], idText)),
    ids,
  );
});

test("the id order from the server's _rows: ranks and kept log_hashes equal a sort by code point, ids twice found", async () => {
  const { trajectoryOrderOf } = await import("../store/clickhouse/trajectory-order-sql.js");
  type T = { trajectory_id: string; log_hash?: string | null };
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const ids = ["b", "a", "é", "Z", "a0", "😀", "ab", "b1", "B", "aa", "z", "0"];
  const trajectories: T[] = ids.map((trajectory_id) => ({
    trajectory_id,
    ...(rand(4) === 0 ? {} : { log_hash: rand(3) === 0 ? null : ["h1", "h2", "", "h3"][rand(4)] }),
  }));
  // Code-point order (analysis/order.ts's), as the server's byte order gives it.
  const byCodePoint = (a: string, b: string) => {
    const x = [...a].map((c) => c.codePointAt(0)!);
    const y = [...b].map((c) => c.codePointAt(0)!);
    for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k] - y[k];
    return x.length - y.length;
  };
  const sorted = trajectories.map((_, k) => k).sort((a, b) => byCodePoint(ids[a], ids[b]));
  const body = Buffer.alloc(4 * sorted.length);
  sorted.forEach((k, at) => {
    body.writeUInt32LE(k, 4 * at);
  });
  const got = trajectoryOrderOf(body, trajectories as never, (row) => row);
  assert.ok(got?.idsUnique && got.order);
  const seen = new Set<string>();
  sorted.forEach((k, rank) => {
    assert.equal(got.order!.rank[k], rank, `rank of ${ids[k]}`);
    const h = trajectories[k].log_hash;
    const kept = h === undefined || h === null || !seen.has(h);
    if (h !== undefined && h !== null) seen.add(h);
    assert.equal(got.order!.kept[k], kept ? 1 : 0, `kept of ${ids[k]} (log_hash ${h})`);
  });
  const twice = [...trajectories, { trajectory_id: "a" }];
  const twiceSorted = twice
    .map((_, k) => k)
    .sort((a, b) => byCodePoint(twice[a].trajectory_id, twice[b].trajectory_id));
  const twiceBody = Buffer.alloc(4 * twice.length);
  twiceSorted.forEach((k, at) => {
    twiceBody.writeUInt32LE(k, 4 * at);
  });
  assert.deepEqual(
    trajectoryOrderOf(twiceBody, twice as never, (row) => row),
    { idsUnique: false },
  );
  assert.equal(
    trajectoryOrderOf(body.subarray(4), trajectories as never, (row) => row),
    undefined,
    "rows missing",
  );
});
