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
