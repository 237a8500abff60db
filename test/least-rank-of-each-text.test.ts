import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { leastRankOfEachText } from "../store/clickhouse/least-rank-of-each-text.js";

/** The rule written out: visit the rows by rank, keep each text's first; a row holding no text is kept. */
function referenceKept(texts: readonly (string | null | undefined)[], rank: readonly number[]): number[] {
  const byRank = texts.map((_, p) => p).sort((a, b) => rank[a] - rank[b]);
  const seen = new Set<string>();
  const kept = texts.map(() => 0);
  for (const p of byRank) {
    const t = texts[p];
    if (t !== null && t !== undefined) {
      if (seen.has(t)) continue;
      seen.add(t);
    }
    kept[p] = 1;
  }
  return kept;
}

/** A random permutation of 0 … n − 1 (Fisher–Yates). */
function permutation(n: number, random: () => number): number[] {
  const p = Array.from({ length: n }, (_, k) => k);
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [p[k], p[j]] = [p[j], p[k]];
  }
  return p;
}

test("leastRankOfEachText keeps each text on its row of least rank, as visiting by rank does", () => {
  const random = seedrandom("least-rank-of-each-text");
  // Few distinct texts, so most rows repeat one and the table's probes meet other texts' slots; "" is a text,
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
    const rank = permutation(n, random);
    const got = leastRankOfEachText(n, (p) => texts[p], Int32Array.from(rank));
    assert.deepEqual(Array.from(got), referenceKept(texts, rank), `n = ${n}`);
  }
});

test("leastRankOfEachText: distinct texts are all kept; one text on every row is kept on the row of rank 0", () => {
  const distinct = Array.from({ length: 3000 }, (_, k) => `h-${k}`);
  const identity = distinct.map((_, k) => k);
  assert.ok(leastRankOfEachText(distinct.length, (p) => distinct[p], identity).every((m) => m === 1));
  const rank = permutation(3000, seedrandom("one text"));
  const kept = leastRankOfEachText(3000, () => "h", rank);
  assert.deepEqual(
    Array.from(kept.keys()).filter((p) => kept[p] === 1),
    [rank.indexOf(0)],
  );
});
