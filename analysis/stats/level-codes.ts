/**
 * Each score's level: the rank of its value among the distinct values, in one pass over the scores.
 *
 * Why not a `Map<number, number>`: a Map keyed by doubles hashes a heap number per lookup (about 40 ns
 * here), which was most of building a clustered AUC on 20,000–200,000 tie-heavy scores
 * (bench/bootstrap-bench.ts). This is an open-addressing table on the value's 64 bits (linear probing,
 * kept at most half full), with −0 read as +0 as a Map's SameValueZero does. NaN is not a level: the
 * callers reject non-finite scores first.
 */
export function levelCodes(scores: ArrayLike<number>): { level: Int32Array; values: Float64Array } {
  const n = scores.length;
  const values64 = scores instanceof Float64Array ? scores : Float64Array.from(scores);
  // The scores' own bits, two words each (little-endian: low word first), read without a copy.
  const word = new Uint32Array(values64.buffer, values64.byteOffset, 2 * n);
  let mask = 15;
  let slotLo = new Uint32Array(mask + 1);
  let slotHi = new Uint32Array(mask + 1);
  let slotCode = new Int32Array(mask + 1).fill(-1);
  let seen = new Float64Array(16);
  let size = 0;
  const code = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const lo = word[2 * i];
    // −0 (high word 0x80000000, low word 0) is the level of +0.
    const hi = lo === 0 && word[2 * i + 1] === 0x80000000 ? 0 : word[2 * i + 1];
    let s = slotOf(lo, hi) & mask;
    while (slotCode[s] >= 0 && (slotLo[s] !== lo || slotHi[s] !== hi)) s = (s + 1) & mask;
    if (slotCode[s] < 0) {
      if (size === seen.length) seen = grow(seen);
      seen[size] = values64[i] === 0 ? 0 : values64[i];
      slotLo[s] = lo;
      slotHi[s] = hi;
      slotCode[s] = size++;
      if (2 * size > mask) {
        // Rehash into twice the slots: the probe sequences stay short.
        const old = { lo: slotLo, hi: slotHi, code: slotCode };
        mask = 2 * mask + 1;
        slotLo = new Uint32Array(mask + 1);
        slotHi = new Uint32Array(mask + 1);
        slotCode = new Int32Array(mask + 1).fill(-1);
        for (let t = 0; t < old.code.length; t++) {
          if (old.code[t] < 0) continue;
          let u = slotOf(old.lo[t], old.hi[t]) & mask;
          while (slotCode[u] >= 0) u = (u + 1) & mask;
          slotLo[u] = old.lo[t];
          slotHi[u] = old.hi[t];
          slotCode[u] = old.code[t];
        }
      }
      code[i] = size - 1;
    } else code[i] = slotCode[s];
  }
  // First-seen codes ranked by value: the distinct values sorted (natively, no comparator), each one's code
  // found again in the table (a binary search per value cost 20 times more on continuous scores).
  const values = seen.slice(0, size).sort();
  const valueWord = new Uint32Array(values.buffer);
  const rank = new Int32Array(size);
  for (let r = 0; r < size; r++) {
    const lo = valueWord[2 * r];
    const hi = valueWord[2 * r + 1];
    let s = slotOf(lo, hi) & mask;
    while (slotLo[s] !== lo || slotHi[s] !== hi) s = (s + 1) & mask;
    rank[slotCode[s]] = r;
  }
  for (let i = 0; i < n; i++) code[i] = rank[code[i]];
  return { level: code, values };
}

/** A 32-bit mix of a double's two words (murmur3's finaliser): k/n grids differ mostly in the high word. */
function slotOf(lo: number, hi: number): number {
  let h = Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi ^ (hi >>> 16), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function grow(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const b = new Float64Array(2 * a.length);
  b.set(a);
  return b;
}
