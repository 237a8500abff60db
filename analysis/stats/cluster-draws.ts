import { CLUSTER_DRAWS_WASM } from "./wasm/cluster-draws-bytes.js";
import { compileWasm } from "./wasm/compile.js";
import { Xor4096, xor4096State } from "./xor4096.js";

/**
 * Where a cluster bootstrap's draws come from: each `draw` writes into `weights[0..n)` the
 * multiplicities of n clusters drawn uniformly with replacement, counting the clusters that the next n
 * numbers of seedrandom's xor4096 stream pick (⌊u·n⌋), exactly as {@link Xor4096.addDraw} does.
 */
export interface ClusterDraws {
  draw(weights: Float64Array): void;
}

export type DrawEngine = "wasm" | "js";

/**
 * The draws for `seed`, from the WebAssembly kernel (analysis/stats/wasm/cluster-draws.wat) where this
 * runtime can compile it, else from {@link Xor4096} in JavaScript. Both give the same weights draw for
 * draw (test/cluster-draws.test.ts), so every interval is the same bits either way; the kernel makes
 * a number and counts it in about 1 ns against 4.3–4.7 for the JavaScript loop (issue 10: the
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
  return {
    draw(weights) {
      weights.fill(0, 0, n);
      rng.addDraw(weights, n);
    },
  };
}

/** Whether this runtime runs the WebAssembly draw kernel (`clusterDraws` falls back to JavaScript if not). */
export const drawKernelAvailable = (): boolean => drawKernel() !== undefined;

// The kernel's memory layout (cluster-draws.wat): the state words, w and pos, the cycle buffer, the counts.
const W_WORD = 256;
const POS_WORD = 257;
const BUFFER_WORD = 512;
const COUNTS_BYTE = 4096;
const PAGE = 65536;

/**
 * One instance of the kernel per thread. It holds one stream's state at a time (the `owner`); a stream
 * that draws while another holds it swaps the states (about 1 KB each way), which a bootstrap, drawing
 * from one stream throughout, does once.
 */
class DrawKernel {
  owner: WasmClusterDraws | undefined;
  private readonly memory: WebAssembly.Memory;
  private readonly drawInto: (n: number) => void;
  words!: Int32Array;
  /** The counts of the last draw's size (a view made once per size, not once per draw). */
  private counts!: Float64Array;

  constructor(instance: WebAssembly.Instance) {
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.drawInto = instance.exports.draw as (n: number) => void;
    this.views();
  }

  private views(n = 0) {
    this.words = new Int32Array(this.memory.buffer);
    this.counts = new Float64Array(this.memory.buffer, COUNTS_BYTE, n);
  }

  draw(weights: Float64Array, n: number) {
    if (this.counts.length !== n) {
      const bytes = COUNTS_BYTE + 8 * n;
      if (bytes > this.memory.buffer.byteLength)
        this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE));
      this.views(n);
    }
    this.drawInto(n);
    weights.set(this.counts);
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
    const k = this.kernel;
    if (k.owner !== this) {
      k.owner?.save();
      this.restore();
      k.owner = this;
    }
    k.draw(weights, this.n);
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

let kernel: DrawKernel | null | undefined;

/** This thread's kernel, compiled on first use; null where WebAssembly (or its SIMD) is refused. */
function drawKernel(): DrawKernel | undefined {
  if (kernel === undefined) {
    const module = compileWasm(CLUSTER_DRAWS_WASM);
    kernel = module ? new DrawKernel(new WebAssembly.Instance(module)) : null;
  }
  return kernel ?? undefined;
}
