/** The typed arrays a column can be. */
type ColumnType = Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;

/** Columns at least this large (bytes) are shared; smaller ones cost V8 little and a shared buffer a page. */
const SHARED_FROM_BYTES = 1 << 20;

/**
 * A zeroed typed array for a column kept until the analysis ends (a store's score columns, RQ1's
 * population, a job's columns), backed by a SharedArrayBuffer when it is large and the runtime has
 * one (Node does; a browser only when cross-origin isolated, else an ordinary buffer).
 *
 * Why: V8 counts an ordinary ArrayBuffer's memory as external and starts a full collection
 * of the whole heap for about every 64 MB of new ones ("external memory pressure" in --trace-gc). At
 * 100× the paper that heap is 1.5 GB and building RQ1's and the uplift's jobs ran seven full collections
 * of about 2 s each that freed nothing, since every column was still in use. A SharedArrayBuffer is not
 * counted that way. Being unaccounted, it is freed only by a collection that V8 starts for other reasons,
 * which is why only columns kept to the end use it (temporaries stay ordinary). A job's shared columns
 * also reach the worker thread without a copy (a structured clone shares the buffer).
 */
export function keptColumn<T extends ColumnType>(Type: T, length: number): InstanceType<T> {
  const bytes = length * Type.BYTES_PER_ELEMENT;
  if (bytes < SHARED_FROM_BYTES || typeof SharedArrayBuffer !== "function") return new Type(length) as InstanceType<T>;
  // (The cast: TypeScript's union of the three constructors accepts only an ArrayBuffer; each takes either.)
  return new Type(new SharedArrayBuffer(bytes) as unknown as ArrayBuffer) as InstanceType<T>;
}
