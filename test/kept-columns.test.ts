import { test } from "node:test";
import assert from "node:assert/strict";
import { keptColumn } from "../analysis/kept-columns.js";

test("keptColumn: a zeroed column of the type and length asked; shared from 1 MiB, ordinary below", () => {
  for (const [Type, length] of [
    [Float64Array, 10],
    [Float64Array, 1 << 17],
    [Int32Array, 3],
    [Int32Array, 1 << 18],
    [Uint8Array, (1 << 20) - 1],
    [Uint8Array, 1 << 20],
  ] as const) {
    const column = keptColumn(Type, length);
    assert.ok(column instanceof Type);
    assert.equal(column.length, length);
    assert.ok(column.every((x) => x === 0));
    const shared = length * Type.BYTES_PER_ELEMENT >= 1 << 20;
    assert.equal(column.buffer instanceof SharedArrayBuffer, shared, `${Type.name} × ${length}`);
  }
});
