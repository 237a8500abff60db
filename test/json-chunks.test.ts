import { test } from "node:test";
import assert from "node:assert/strict";
import { prettyJsonBytes, prettyJsonChunks } from "../report/json-chunks.js";

const joined = (v: unknown, chunkChars?: number) => [...prettyJsonChunks(v, chunkChars)].join("");

test("chunked JSON is JSON.stringify(value, null, 2) plus a newline, byte for byte, whatever the chunk size", () => {
  const long = Array.from({ length: 300 }, (_, i) => ({
    id: `t-${i}`,
    text: 'line one\nline "two"\u2028 ✓ \u001b[31m',
    score: i % 7 === 0 ? NaN : i / 7,
    skip: undefined,
    nested: { deep: { deeper: [i, null, undefined, () => 1] } },
  }));
  const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i % 2 ? [] : {}]));
  const cases: unknown[] = CASES(long, wide);
  for (const [k, v] of cases.entries()) {
    const expected = `${JSON.stringify(v, null, 2)}\n`;
    for (const size of [1, 7, 1 << 20]) assert.equal(joined(v, size), expected, `case ${k}, chunks of ${size}`);
    // The bytes, with each chunk copied as it comes (the next overwrites it), decode to the same text.
    for (const size of [3, 64, 1 << 20]) {
      const copied: Uint8Array[] = [];
      for (const c of prettyJsonBytes(v, size)) copied.push(c.slice());
      assert.equal(Buffer.concat(copied).toString("utf8"), expected, `case ${k}, bytes in chunks of ${size}`);
      assert.ok(copied.every((c) => c.length > 0));
    }
  }
});

function CASES(long: unknown[], wide: unknown): unknown[] {
  return [
    { a: 1, b: [1, 2, { c: "x" }], d: {}, e: [], f: undefined, g: null, h: Infinity, "1": "integer key first" },
    long,
    { top: { pairs: long, wide, empty: {}, emptyList: [] } },
    [undefined, () => 0, Symbol("s"), new Float64Array([1, 2]), new Date(0), "tail"],
    Object.assign(Object.create(null), { bare: { x: 1 } }),
    // Runs of small entries (serialised together) broken by entries that are walked (long arrays).
    Array.from({ length: 700 }, (_, i) =>
      i % 97 === 0 ? Array.from({ length: 70 }, (_, j) => ({ j })) : i % 13 === 0 ? undefined : { i, s: "x\ny" },
    ),
    { deep: { er: { list: Array.from({ length: 600 }, (_, i) => (i % 200 === 5 ? new Array(80).fill(i) : [i])) } } },
    "just a string",
    42,
    { astral: "\u{1F600} and a lone \ud800 surrogate", arrow: "FAIL→PASS", latin: "é" },
  ];
}

test("chunks stay near the requested size, so no single string holds the whole report", () => {
  const big = { pairs: Array.from({ length: 20_000 }, (_, i) => ({ i, s: "x".repeat(20) })) };
  const chunks = [...prettyJsonChunks(big, 4096)];
  assert.ok(chunks.length > 100, `${chunks.length} chunks`);
  assert.ok(Math.max(...chunks.map((c) => c.length)) < 4096 + 200);
});
