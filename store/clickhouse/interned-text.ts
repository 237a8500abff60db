/**
 * One string for each repeated value of a RowBinary String column, found from its bytes, so a repeat makes no new
 * string: a trajectories table repeats its task, harness, model, source, condition, outcome and tags on every row
 * (at scale 100, 485,000 rows each), and decoding every one of them was most of the read's string work and much of
 * its garbage. A column whose values turn out mostly distinct (ids, hashes, free text) stops being looked up after
 * its first 4,096 values. store/string-pool.ts pools strings already made, by their text; this avoids making them.
 */
export class InternedText {
  private readonly byHash = new Map<number, Entry>();
  private values = 0;
  private distinct = 0;
  private on = true;
  /** The last value given: rows in store order repeat it (a task's rows are together). */
  private last: Entry | undefined;

  /** The text of body[start, start + n) as UTF-8: the string made the first time these bytes came. */
  text(body: Buffer, start: number, n: number): string {
    if (!this.on || n > MAX_BYTES) return body.toString("utf8", start, start + n);
    this.values++;
    if (this.last !== undefined && sameBytes(this.last.bytes, body, start, n)) return this.last.text;
    const h = bytesHash(body, start, n);
    const first = this.byHash.get(h);
    for (let e = first; e !== undefined; e = e.next)
      if (sameBytes(e.bytes, body, start, n)) {
        this.last = e;
        return e.text;
      }
    const text = body.toString("utf8", start, start + n);
    this.last = { bytes: Buffer.from(body.subarray(start, start + n)), text, next: first };
    this.byHash.set(h, this.last);
    this.distinct++;
    if (this.values >= SAMPLE && this.distinct * 2 > this.values) {
      this.on = false;
      this.byHash.clear();
      this.last = undefined;
    }
    return text;
  }
}

/** FNV-1a over the bytes (and their count), kept to 30 bits: a small integer, the Map's cheapest key. */
export function bytesHash(body: Uint8Array, start: number, n: number): number {
  let h = 0x811c9dc5 ^ n;
  for (let i = start; i < start + n; i++) h = Math.imul(h ^ body[i], 0x01000193);
  return h & 0x3fffffff;
}

interface Entry {
  bytes: Buffer;
  text: string;
  next: Entry | undefined;
}

/** Values looked at before a mostly distinct column stops being looked up. */
const SAMPLE = 4096;

/** Longer values are made each time (free text, not worth hashing). */
const MAX_BYTES = 256;

function sameBytes(a: Buffer, body: Buffer, start: number, n: number): boolean {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== body[start + i]) return false;
  return true;
}
