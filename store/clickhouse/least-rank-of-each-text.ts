/**
 * Which rows are kept when each text is kept once, on its row of least rank: `kept[p]` is 1 when row p holds no
 * text (null or absent) or no other row holding its text has a lower `rank`. The log_hash deduplication of a
 * ClickHouse store's trajectories (paper §4.1: each hash kept on its trajectory of least id; trajectory-order-sql.ts,
 * `rank` the id order) is this, over 485,000 hashes at scale 100.
 *
 * The rows are visited in their own order, so each row is read once and in memory order (visiting them in rank
 * order read the rows all over the heap: at scale 100 most of the time went to those reads), and each text's row of
 * least rank so far sits in a table of row indices open-addressed by a 32-bit FNV-1a of the text's UTF-16 units
 * (texts equal only when `===` says so), sized once. Not a Map of the texts: it grows by rehashing every entry at
 * each doubling, and allocates as it goes (485,000 distinct 17-character texts in a random order: 450–700 ms
 * through a Set, 200–270 ms through such a table, on this machine).
 */
export function leastRankOfEachText(
  n: number,
  textAt: (p: number) => string | null | undefined,
  rank: ArrayLike<number>,
): Uint8Array {
  const kept = new Uint8Array(n);
  // At most half full, so a probe ends soon (linear probing).
  const size = 2 ** Math.max(4, Math.ceil(Math.log2(2 * n + 1)));
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  // Each slot's text, beside its row: a probe compares texts without reading the row again.
  const held = new Array<string>(size);
  for (let p = 0; p < n; p++) {
    const text = textAt(p);
    if (text === null || text === undefined) {
      kept[p] = 1;
      continue;
    }
    let s = textHash(text) & mask;
    for (;;) {
      const q = slots[s];
      if (q === -1) {
        slots[s] = p;
        held[s] = text;
        kept[p] = 1;
        break;
      }
      if (held[s] === text) {
        if (rank[p] < rank[q]) {
          kept[q] = 0;
          slots[s] = p;
          kept[p] = 1;
        }
        break;
      }
      s = (s + 1) & mask;
    }
  }
  return kept;
}

/** FNV-1a over the text's UTF-16 code units, as an unsigned 32-bit number. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
