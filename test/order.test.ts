import { test } from "node:test";
import assert from "node:assert/strict";
import { compareCodePoints, sortByCodePoints } from "../analysis/order.js";
import { Xor4096 } from "../analysis/stats/xor4096.js";

/** The definition, code point by code point (a lone surrogate is its own code point), for reference. */
function reference(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

test("code-point order: astral characters sort after U+E000–U+FFFF, unlike UTF-16 order", () => {
  const astral = "\u{1F600}"; // a surrogate pair, code point U+1F600
  const privateUse = "\uE000";
  assert.ok(astral < privateUse, "UTF-16 code units put the surrogate pair first");
  assert.ok(compareCodePoints(astral, privateUse) > 0);
  assert.deepEqual(["b", "a\uFFFF", astral, "a", "", "a\u{10000}"].sort(compareCodePoints), [
    "",
    "a",
    "a\uFFFF",
    "a\u{10000}",
    "b",
    astral,
  ]);
});

test("code-point order agrees in sign with the definition on random strings, lone surrogates included", () => {
  const rng = new Xor4096("order");
  const alphabet = [
    "a",
    "b",
    "z",
    "\u00e9",
    "\ud7ff",
    "\ud800",
    "\udc00",
    "\ue000",
    "\uffff",
    "\u{10000}",
    "\u{1F600}",
  ];
  const random = () =>
    Array.from(
      { length: Math.floor(rng.uniform() * 5) },
      () => alphabet[Math.floor(rng.uniform() * alphabet.length)],
    ).join("");
  for (let k = 0; k < 20_000; k++) {
    const a = random();
    const b = rng.uniform() < 0.3 ? a + random() : random();
    assert.equal(Math.sign(compareCodePoints(a, b)), Math.sign(reference(a, b)), JSON.stringify([a, b]));
  }
});

test("sortByCodePoints sorts as compareCodePoints does, on keys with and without code units ≥ U+D800", () => {
  const rng = new Xor4096("sort");
  const plain = ["a", "b", "z", "-", "0", "\u00e9", "\ud7ff"];
  const wide = [...plain, "\ud800", "\udc00", "\ue000", "\uffff", "\u{10000}", "\u{1F600}"];
  for (const alphabet of [plain, wide]) {
    const key = () =>
      Array.from(
        { length: 1 + Math.floor(rng.uniform() * 4) },
        () => alphabet[Math.floor(rng.uniform() * alphabet.length)],
      ).join("");
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: key(), i }));
    const want = [...items].sort((a, b) => compareCodePoints(a.id, b.id));
    assert.deepEqual(
      sortByCodePoints(items, (x) => x.id),
      want,
      "the same order, ties in input order",
    );
  }
});
