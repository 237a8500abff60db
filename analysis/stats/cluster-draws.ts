import { argError } from "../errors.js";
import type { ClusterSums } from "./cluster-sums.js";
import { CLUSTER_DRAWS_WASM } from "./wasm/cluster-draws-bytes.js";
import { align8, compiledOnce, reserveBytes } from "./wasm/compile.js";
import { Xor4096, xor4096State } from "./xor4096.js";

/**
 * Where a cluster bootstrap's draws come from: each `draw` writes into `weights[0..n)` the
 * multiplicities of n clusters drawn uniformly with replacement, counting the clusters that the next n
 * numbers of seedrandom's xor4096 stream pick (⌊u·n⌋), exactly as {@link Xor4096.addDraw} does.
 */
export interface ClusterDraws {
  draw(weights: Float64Array): void;
  /**
   * The next draw as the sums of a table over the same clusters (`exact`): what `table.fromWeights`
   * gives for the multiplicities `draw` would have written, into `out` (four values).
   */
  sums(table: ClusterSums, out: Float64Array): void;
  /** The next `count` draws as sums, draw d's four at out[4d, 4d + 4): `sums` called `count` times. */
  sumsMany(table: ClusterSums, out: Float64Array, count: number): void;
  /**
   * A stream of two clusters only (n = 2), read as signs: the next `count` draws' Σ ±d[k], out[j] draw j's, each
   * term + where its number picks cluster 0 (u < 1/2): {@link Xor4096.signedSum} called `count` times.
   */
  signedSums(d: Float64Array, out: Float64Array, count: number): void;
}

export type DrawEngine = "wasm" | "js";

/**
 * The draws for `seed`, from the WebAssembly kernel (analysis/stats/wasm/cluster-draws.wat) where this
 * runtime can compile it, else from {@link Xor4096} in JavaScript. Both give the same weights draw for
 * draw (test/cluster-draws.test.ts), so every interval is the same bits either way; the kernel makes
 * a number and counts it in about 1 ns against 4.3–4.7 for the JavaScript loop (the
 * generator was the floor of every bootstrap; bench/bootstrap-bench.ts). JavaScript is the fallback
 * where WebAssembly is refused, e.g. a page under a Content-Security-Policy without 'wasm-unsafe-eval'.
 */
export function clusterDraws(seed: string, n: number, engine: DrawEngine | "auto" = "auto"): ClusterDraws {
  const kernel = engine === "js" ? undefined : drawKernel();
  if (engine === "wasm" && !kernel) throw new Error("the WebAssembly draw kernel is not available here");
  if (kernel) {
    const state = xor4096State(seed);
    // The kernel makes whole cycles of 128 numbers starting at word 0, which is where seedrandom leaves
    // every stream (i = 127: the next number replaces word 0).
    // Its integer index (u·n) >> 32 is ⌊u·n/2³²⌋ exactly while u·n < 2⁵³, i.e. below 2²¹ clusters.
    if (state.i === 127 && n < 2 ** 21) return new WasmClusterDraws(kernel, state, n);
  }
  const rng = new Xor4096(seed);
  const scratch = new Float64Array(n);
  const signedSums = (d: Float64Array, out: Float64Array, count: number) => {
    checkSigns(n);
    for (let j = 0; j < count; j++) out[j] = rng.signedSum(d);
  };
  const draw = (weights: Float64Array) => {
    weights.fill(0, 0, n);
    rng.addDraw(weights, n);
  };
  return {
    draw,
    signedSums,
    sums(table, out) {
      checkTable(table, n);
      draw(scratch);
      table.fromWeights(scratch, out);
    },
    sumsMany(table, out, count) {
      checkTable(table, n);
      for (let d = 0; d < count; d++) {
        draw(scratch);
        table.fromWeights(scratch, out.subarray(4 * d, 4 * d + 4));
      }
    },
  };
}

function checkSigns(n: number): void {
  if (n !== 2) throw argError("ClusterDraws.signedSums", "clusters", n, "must be 2 (a stream of signs)");
}

function checkTable(table: ClusterSums, n: number): void {
  if (table.clusters !== n) throw argError("ClusterDraws.sums", "table.clusters", table.clusters, `must be ${n}`);
  if (!table.exact) throw argError("ClusterDraws.sums", "table", "inexact", "needs an exact table (ClusterSums)");
}

/** Whether this runtime runs the WebAssembly draw kernel (`clusterDraws` falls back to JavaScript if not). */
export const drawKernelAvailable = (): boolean => drawKernel() !== undefined;

// The kernel's memory layout (cluster-draws.wat): the state words, w and pos, the cycle buffer, then a
// draw's arrays from byte 4096 on: the clusters it picks, then its counts or the sums' table and sums.
const W_WORD = 256;
const POS_WORD = 257;
const BUFFER_WORD = 512;
const PICKED_BYTE = 4096;

/** Where the picked clusters end and the draw's next array starts (8-byte aligned). */
const afterPicked = (n: number) => align8(PICKED_BYTE + 4 * n);

type DrawExport = (n: number, picked: number, counts: number) => void;
type SumsExport = (n: number, picked: number, table: number, out: number) => void;
type SumsManyExport = (n: number, picked: number, table: number, out: number, count: number) => void;
type SignedSumsExport = (t: number, picked: number, d: number, out: number, count: number) => void;

/**
 * One instance of the kernel per thread. It holds one stream's state at a time (the `owner`); a stream
 * that draws while another holds it swaps the states (about 1 KB each way), which a bootstrap, drawing
 * from one stream throughout, does once. Likewise it holds one table of sums at a time.
 */
class DrawKernel {
  owner: WasmClusterDraws | undefined;
  private readonly memory: WebAssembly.Memory;
  private readonly drawExport: DrawExport;
  private readonly sumsExport: SumsExport;
  private readonly sumsManyExport: SumsManyExport;
  private readonly signedSumsExport: SignedSumsExport;
  words!: Int32Array;
  /** The table whose rows are in memory (a counted draw writes over them). */
  private loaded: ClusterSums | undefined;
  /** The output of the last call (a view made once per shape, not once per draw). */
  private output = new Float64Array(0);

  constructor(instance: WebAssembly.Instance) {
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.drawExport = instance.exports.draw as DrawExport;
    this.sumsExport = instance.exports.sums as SumsExport;
    this.sumsManyExport = instance.exports.sumsMany as SumsManyExport;
    this.signedSumsExport = instance.exports.signedSums as SignedSumsExport;
    this.words = new Int32Array(this.memory.buffer);
  }

  /** Room for `bytes`, and a view of the words as the memory now is. */
  private reserve(bytes: number): void {
    reserveBytes(this.memory, bytes);
    if (this.words.buffer !== this.memory.buffer) this.words = new Int32Array(this.memory.buffer);
  }

  /** `length` doubles at `byte`, the view reused while it still is that. */
  private view(byte: number, length: number): Float64Array {
    const v = this.output;
    if (v.buffer !== this.memory.buffer || v.byteOffset !== byte || v.length !== length)
      this.output = new Float64Array(this.memory.buffer, byte, length);
    return this.output;
  }

  draw(weights: Float64Array, n: number): void {
    const counts = afterPicked(n);
    this.reserve(counts + 8 * n);
    this.loaded = undefined;
    this.drawExport(n, PICKED_BYTE, counts);
    weights.set(this.view(counts, n));
  }

  sums(table: ClusterSums, out: Float64Array): void {
    const sums = this.load(table, 1);
    this.sumsExport(table.clusters, PICKED_BYTE, afterPicked(table.clusters), sums);
    out.set(this.view(sums, 4));
  }

  sumsMany(table: ClusterSums, out: Float64Array, count: number): void {
    const sums = this.load(table, count);
    this.sumsManyExport(table.clusters, PICKED_BYTE, afterPicked(table.clusters), sums, count);
    out.set(new Float64Array(this.memory.buffer, sums, 4 * count));
  }

  /** `count` draws of signed sums of `d` (the picked signs, then d, then the sums, in memory). */
  signedSums(d: Float64Array, out: Float64Array, count: number): void {
    const t = d.length;
    const at = afterPicked(t);
    const sums = at + 8 * t;
    this.reserve(sums + 8 * count);
    this.loaded = undefined;
    new Float64Array(this.memory.buffer, at, t).set(d);
    this.signedSumsExport(t, PICKED_BYTE, at, sums, count);
    out.set(new Float64Array(this.memory.buffer, sums, count));
  }

  /** The table's rows in memory after the picked clusters, and room for `draws` draws' sums after them. */
  private load(table: ClusterSums, draws: number): number {
    const rows = afterPicked(table.clusters);
    const sums = rows + 8 * table.rows.length;
    this.reserve(sums + 32 * draws);
    if (this.loaded !== table) {
      new Float64Array(this.memory.buffer, rows, table.rows.length).set(table.rows);
      this.loaded = table;
    }
    return sums;
  }
}

class WasmClusterDraws implements ClusterDraws {
  /** This stream's state while it does not hold the kernel: the 128 words, w, pos, the cycle buffer. */
  private readonly saved = new Int32Array(130 + 128);

  constructor(
    private readonly kernel: DrawKernel,
    state: { x: Int32Array; w: number },
    private readonly n: number,
  ) {
    this.saved.set(state.x);
    this.saved[128] = state.w;
    this.saved[129] = 128; // the cycle buffer is empty
  }

  draw(weights: Float64Array): void {
    this.hold();
    this.kernel.draw(weights, this.n);
  }

  sums(table: ClusterSums, out: Float64Array): void {
    checkTable(table, this.n);
    this.hold();
    this.kernel.sums(table, out);
  }

  sumsMany(table: ClusterSums, out: Float64Array, count: number): void {
    checkTable(table, this.n);
    this.hold();
    this.kernel.sumsMany(table, out, count);
  }

  signedSums(d: Float64Array, out: Float64Array, count: number): void {
    checkSigns(this.n);
    this.hold();
    this.kernel.signedSums(d, out, count);
  }

  /** Puts this stream's state in the kernel, saving the state of the stream that held it. */
  private hold(): void {
    const k = this.kernel;
    if (k.owner !== this) {
      k.owner?.save();
      this.restore();
      k.owner = this;
    }
  }

  save(): void {
    const words = this.kernel.words;
    this.saved.set(words.subarray(0, 128));
    this.saved[128] = words[W_WORD];
    this.saved[129] = words[POS_WORD];
    this.saved.set(words.subarray(BUFFER_WORD, BUFFER_WORD + 128), 130);
  }

  private restore(): void {
    const words = this.kernel.words;
    words.set(this.saved.subarray(0, 128));
    words[W_WORD] = this.saved[128];
    words[POS_WORD] = this.saved[129];
    words.set(this.saved.subarray(130), BUFFER_WORD);
  }
}

const clusterDrawsModule = compiledOnce(CLUSTER_DRAWS_WASM);
let kernel: DrawKernel | null | undefined;

/** This thread's kernel, compiled on first use; null where WebAssembly (or its SIMD) is refused. */
function drawKernel(): DrawKernel | undefined {
  if (kernel === undefined) {
    const module = clusterDrawsModule();
    kernel = module ? new DrawKernel(new WebAssembly.Instance(module)) : null;
  }
  return kernel ?? undefined;
}
