/**
 * `JSON.stringify(value, null, 2) + "\n"`, byte for byte, as a sequence of text chunks of about
 * `chunkChars` characters, so that a report larger than one JavaScript string can be written.
 *
 * Why: V8 caps a string at 2²⁹ − 24 characters (≈ 537 M). At 100× the paper the report's matched
 * pairs alone make the indented JSON ≈ 560 M characters, so `JSON.stringify` threw "Invalid string
 * length" after the whole analysis had run. No npm package we use streams JSON with
 * JSON.stringify's exact indentation, and the rule is short: plain arrays and objects are walked;
 * anything else, and any container small enough, is serialised by JSON.stringify itself and
 * re-indented. Re-indenting is safe because JSON.stringify escapes every newline inside a string,
 * so each "\n" of its output is structural.
 *
 * 64 K characters a chunk by default: a string of 1 M goes to V8's large-object space, which only a full
 * collection frees; with 1 M chunks, writing the scale-100 report took 2.0 s instead of 0.5–0.8 s.
 */
export function* prettyJsonChunks(value: unknown, chunkChars = CHUNK_CHARS): Generator<string> {
  let buffer = "";
  for (const piece of pieces(value, 0, true, batchFor(chunkChars))) {
    buffer += piece;
    if (buffer.length >= chunkChars) {
      yield buffer;
      buffer = "";
    }
  }
  yield `${buffer}\n`;
}

/**
 * The same text as UTF-8 bytes, in chunks of about `chunkBytes`, for a file: each piece is encoded
 * straight into one reused buffer, with no chunk string built first. Concatenating the pieces into
 * strings, then encoding those, cost 1.8 s for the scale-100 report (127 M characters, two-byte strings
 * since a few hold "→"); this costs 0.67 s, measured in one process.
 *
 * Each chunk is a view of that buffer and is overwritten by the next: consume it (e.g. write it
 * synchronously) before asking for the next.
 */
export function* prettyJsonBytes(value: unknown, chunkBytes = 1 << 20): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  let buffer = new Uint8Array(chunkBytes);
  let used = 0;
  for (const piece of textOf(value, batchFor(CHUNK_CHARS))) {
    // A UTF-16 unit becomes at most 3 bytes of UTF-8 (a surrogate pair, two units, becomes 4).
    if (used + 3 * piece.length > buffer.length) {
      if (used > 0) yield buffer.subarray(0, used);
      used = 0;
      if (3 * piece.length > buffer.length) buffer = new Uint8Array(3 * piece.length);
    }
    used += encoder.encodeInto(piece, buffer.subarray(used)).written;
  }
  if (used > 0) yield buffer.subarray(0, used);
}

/** Every piece of the indented text, the final newline included. */
function* textOf(value: unknown, batch: number): Generator<string> {
  yield* pieces(value, 0, true, batch);
  yield "\n";
}

/** Characters of a text chunk by default (see prettyJsonChunks). */
const CHUNK_CHARS = 1 << 16;

/** Entries of a run serialised together: at up to ~2,000 characters an entry, a run stays within a chunk. */
const batchFor = (chunkChars: number) => Math.max(1, Math.min(BATCH, Math.floor(chunkChars / 2048)));

/** Containers with at most this many entries are serialised in one JSON.stringify call. */
const WHOLE_BELOW = 64;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/** JSON.stringify leaves these out of an object and writes them as null in an array. */
const omitted = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/** Whether a value at this depth is walked entry by entry rather than serialised in one call. */
const walked = (value: unknown, depth: number) =>
  (Array.isArray(value) && value.length > WHOLE_BELOW) ||
  (isPlainObject(value) && !("toJSON" in value) && (depth < 2 || Object.keys(value).length > WHOLE_BELOW));

/** Consecutive small entries of a long array serialised together (one call for up to this many). */
const BATCH = 256;

function* pieces(value: unknown, depth: number, inArray: boolean, batch: number): Generator<string> {
  if (!walked(value, depth)) {
    const text = JSON.stringify(value, null, 2);
    yield text === undefined ? (inArray ? "null" : "") : reindent(text, depth);
    return;
  }
  const pad = "  ".repeat(depth + 1);
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; ) {
      let end = i;
      while (end < value.length && end - i < batch && !walked(value[end], depth + 1)) end++;
      if (end > i) {
        yield `${i === 0 ? "" : ","}\n${entriesText(value.slice(i, end), depth)}`;
        i = end;
        continue;
      }
      yield `${i === 0 ? "" : ","}\n${pad}`;
      yield* pieces(omitted(value[i]) ? null : value[i], depth + 1, true, batch);
      i++;
    }
    yield `\n${"  ".repeat(depth)}]`;
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => !omitted(v));
  if (entries.length === 0) {
    yield "{}";
    return;
  }
  yield "{";
  for (const [i, [key, v]] of entries.entries()) {
    yield `${i === 0 ? "" : ","}\n${pad}${JSON.stringify(key)}: `;
    yield* pieces(v, depth + 1, false, batch);
  }
  yield `\n${"  ".repeat(depth)}}`;
}

/**
 * The entries of an array standing at `depth`, as JSON.stringify(…, null, 2) indents them there, one per
 * line, joined by ",\n" (nulls for the entries it omits). The run is wrapped in `depth` arrays, so that
 * JSON.stringify itself indents the entries depth + 1 levels in; the wrappers' lines, (depth + 1)(depth + 2)
 * characters at each end, are cut off: no pass over the text to re-indent it (a third of the write's time
 * for RQ3's pairs).
 */
function entriesText(run: unknown[], depth: number): string {
  let wrapped: unknown = run;
  for (let d = 0; d < depth; d++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  const cut = (depth + 1) * (depth + 2);
  return text.slice(cut, text.length - cut);
}

function reindent(text: string, depth: number): string {
  return depth === 0 ? text : text.replaceAll("\n", `\n${"  ".repeat(depth)}`);
}
