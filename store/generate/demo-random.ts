import seedrandom from "seedrandom";
import { shuffler } from "d3";

/**
 * The demo generator's one random stream. Every draw goes through it in a fixed order, so a
 * seed gives the same store on every machine (the order of calls is part of the output).
 */
export class DemoRandom {
  readonly uniform: () => number;
  private readonly shuffle: <T>(xs: T[]) => T[];

  /** `stream` names a second stream of the same seed (its draws leave the main stream's order untouched). */
  constructor(seed: number, stream?: string) {
    this.uniform = seedrandom(stream ? `gcpc-demo:${seed}:${stream}` : `gcpc-demo:${seed}`);
    // Fisher–Yates with our generator (d3.shuffler): a comparator that returns random signs is biased
    // and depends on the engine's sort algorithm, which would break seed reproducibility across engines.
    this.shuffle = shuffler(this.uniform);
  }

  /** Standard normal by Box–Muller (one of the pair; two uniforms per call, part of the stream's order). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(1 - this.uniform())) * Math.cos(2 * Math.PI * this.uniform());
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.uniform() * xs.length)];
  }

  shuffled<T>(xs: readonly T[]): T[] {
    return this.shuffle(xs.slice());
  }

  /** Beta(a, b) for integer a, b as the a-th order statistic of a + b − 1 uniforms. */
  beta(a: number, b: number): number {
    const u = Array.from({ length: a + b - 1 }, this.uniform).sort((x, y) => x - y);
    return u[a - 1];
  }
}

export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
export const pad = (n: number, w = 3): string => String(n).padStart(w, "0");
