import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { firstOfEachText } from "../store/clickhouse/first-of-each-text.js";

/** The rule written out with a Set: a visit is marked when it holds no text or the first of its text. */
function referenceMarks(texts: readonly (string | null | undefined)[]): number[] {
  const seen = new Set<string>();
  return texts.map((t) => {
    if (t === null || t === undefined) return 1;
    if (seen.has(t)) return 0;
    seen.add(t);
    return 1;
  });
}

test("firstOfEachText marks the first visit of each text, as a Set does", () => {
  const random = seedrandom("first-of-each-text");
  // Few distinct texts, so most visits repeat one and the table's probes meet other texts' slots; "" is a text,
  // null and undefined are none; astral and accented characters differ from their neighbours by one unit.
  const alphabet = ["a", "b", "é", "e\u0301", "\u{1F600}", "\uffff", "\u0000"];
  for (const n of [0, 1, 2, 7, 100, 5000]) {
    const texts = Array.from({ length: n }, () => {
      const r = random();
      if (r < 0.05) return null;
      if (r < 0.1) return undefined;
      if (r < 0.15) return "";
      const length = 1 + Math.floor(random() * 3);
      return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    });
    assert.deepEqual(Array.from(firstOfEachText(n, (k) => texts[k])), referenceMarks(texts), `n = ${n}`);
  }
});

test("firstOfEachText: every text distinct marks every visit; one text repeated marks the first only", () => {
  const distinct = Array.from({ length: 3000 }, (_, k) => `h-${k}`);
  assert.ok(firstOfEachText(distinct.length, (k) => distinct[k]).every((m) => m === 1));
  const same = firstOfEachText(3000, () => "h");
  assert.equal(same[0], 1);
  assert.equal(
    same.reduce((a, b) => a + b, 0),
    1,
  );
});
