import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";
import seedrandom from "seedrandom";
import { clusterDraws, drawKernelAvailable } from "../analysis/stats/cluster-draws.js";
import { ClusterSums } from "../analysis/stats/cluster-sums.js";
import { assemble, bytesModule, WASM_MODULES } from "../scripts/wasm-modules.js";

test("the committed kernel bytes are what the .wat sources assemble to (npm run wasm)", async () => {
  for (const m of WASM_MODULES) {
    const bytes = await assemble(m.source);
    assert.equal(readFileSync(m.module, "utf8"), bytesModule(m.name, m.source, bytes), m.module);
  }
});

test("Node runs the WebAssembly draw kernel (else every bootstrap silently takes the slower path)", () => {
  assert.equal(drawKernelAvailable(), true);
});

/** What a draw must be: the counts of ⌊u·n⌋ over seedrandom's next n numbers (a reference apart from ours). */
function referenceDraw(rng: () => number, n: number): Float64Array {
  const counts = new Float64Array(n);
  for (let k = 0; k < n; k++) counts[Math.floor(rng() * n)]++;
  return counts;
}

test("both engines count the clusters seedrandom.xor4096's numbers pick, draw after draw", () => {
  // Draw sizes below, at and across the kernel's 128-number cycles, and past a memory page of counts.
  for (const engine of ["wasm", "js"] as const) {
    for (const seed of ["20260101:rq1:gcpc", "a", "", "x".repeat(300)]) {
      for (const n of [1, 2, 3, 26, 127, 128, 129, 255, 1000, 8882, 9000]) {
        const ref = seedrandom.xor4096(seed);
        const ours = clusterDraws(seed, n, engine);
        for (let d = 0; d < Math.max(3, 600 / n); d++) {
          const got = new Float64Array(n + 3).fill(7); // cells past n are left alone
          ours.draw(got);
          const where = `${engine} seed ${JSON.stringify(seed)} n ${n} draw ${d}`;
          assert.deepEqual(got.subarray(0, n), referenceDraw(ref, n), where);
          assert.deepEqual([...got.subarray(n)], [7, 7, 7]);
        }
      }
    }
  }
});

test("streams drawing in turn keep their own places (the kernel swaps their states)", () => {
  const streams = [
    ["one", 3],
    ["two", 129],
    ["three", 9000],
    ["four", 26],
  ] as const;
  const refs = streams.map(([s]) => seedrandom.xor4096(s));
  const ours = streams.map(([s, n]) => clusterDraws(s, n, "wasm"));
  for (let round = 0; round < 20; round++) {
    for (let s = 0; s < streams.length; s++) {
      const n = streams[s][1];
      const got = new Float64Array(n);
      ours[s].draw(got);
      assert.deepEqual(got, referenceDraw(refs[s], n), `stream ${streams[s][0]}, round ${round}`);
    }
  }
});

test("a draw's sums are its counts times the table's columns, on both engines and between counted draws", () => {
  for (const [clusters, width] of [
    [1, 1],
    [26, 4],
    [129, 2],
    [3001, 3],
  ] as const) {
    const rng = seedrandom(`sums ${clusters}`);
    const columns = Array.from({ length: width }, () =>
      Float64Array.from({ length: clusters }, () => Math.round(rng() * 60 - 20) / 2),
    );
    const table = new ClusterSums(columns);
    assert.ok(table.exact);
    for (const engine of ["wasm", "js"] as const) {
      const seed = `sums stream ${clusters}`;
      const ref = seedrandom.xor4096(seed);
      const ours = clusterDraws(seed, clusters, engine);
      // Another stream drawing in between makes the kernel swap states and reload the table.
      const other = clusterDraws("other", 77, engine);
      for (let d = 0; d < 12; d++) {
        const counts = referenceDraw(ref, clusters);
        if (d % 3 === 2) {
          const w = new Float64Array(clusters);
          ours.draw(w); // a counted draw of the same stream between sums
          assert.deepEqual(w, counts);
          continue;
        }
        const expected = new Float64Array(4);
        for (let j = 0; j < width; j++) for (let c = 0; c < clusters; c++) expected[j] += counts[c] * columns[j][c];
        const got = new Float64Array(4);
        ours.sums(table, got);
        assert.deepEqual(got, expected, `${engine} ${clusters} clusters, draw ${d}`);
        other.draw(new Float64Array(77));
      }
    }
  }
});

test("sumsMany gives the draws that as many sums calls give, on both engines, across batch sizes", () => {
  const clusters = 25;
  const rng = seedrandom("sums many");
  const columns = Array.from({ length: 4 }, () =>
    Float64Array.from({ length: clusters }, () => Math.round(rng() * 40 - 10) / 2),
  );
  const table = new ClusterSums(columns);
  for (const engine of ["wasm", "js"] as const) {
    const one = clusterDraws("sums many stream", clusters, engine);
    const expected = new Float64Array(4 * 300);
    for (let d = 0; d < 300; d++) one.sums(table, expected.subarray(4 * d, 4 * d + 4));
    const many = clusterDraws("sums many stream", clusters, engine);
    const got = new Float64Array(4 * 300);
    // Batches of 1, 7 and 292 draws, with another stream drawing in between (the kernel swaps states).
    let at = 0;
    for (const size of [1, 7, 292]) {
      const batch = new Float64Array(4 * size);
      many.sumsMany(table, batch, size);
      got.set(batch, 4 * at);
      at += size;
      clusterDraws("other", 77, engine).draw(new Float64Array(77));
    }
    assert.deepEqual(got, expected, engine);
  }
});

test("a table of sums is exact only for half-integer values whose sums stay below 2⁵¹", () => {
  assert.equal(new ClusterSums([Float64Array.of(2.5, -3)]).exact, true);
  assert.equal(new ClusterSums([Float64Array.of(0.1, 1)]).exact, false);
  assert.equal(new ClusterSums([Float64Array.of(2 ** 50, 1)]).exact, false); // two rows could add 2 × 2⁵⁰
  assert.equal(new ClusterSums([Float64Array.of(2 ** 49, 1)]).exact, true);
  const inexact = new ClusterSums([Float64Array.of(0.1, 1)]);
  assert.throws(() => clusterDraws("s", 2).sums(inexact, new Float64Array(4)), /exact/);
  assert.throws(() => new ClusterSums([Float64Array.of(1), Float64Array.of(1, 2)]), /columns\[1\]/);
});

test("signedSums: both engines give seedrandom's signs summed in order, across lengths, batches and interleaved streams", () => {
  for (const seed of ["20260101:compare:x:sign-flip", "7", ""]) {
    for (const t of [1, 3, 127, 128, 129, 1000]) {
      // Terms whose sum depends on the order of addition, so the order is checked too.
      const d = Float64Array.from({ length: t }, (_, k) => ((k % 5) - 2) * 0.3 + (k % 3 ? 1e15 : 1e-3) * (k + 1));
      const ref = seedrandom.xor4096(seed);
      const want = Float64Array.from({ length: 37 }, () => {
        let s = 0;
        for (const x of d) s += ref() < 0.5 ? x : -x;
        return s;
      });
      for (const engine of ["wasm", "js"] as const) {
        const signs = clusterDraws(seed, 2, engine);
        // Another stream drawing in between: the kernel swaps the states.
        const other = clusterDraws(`${seed}:other`, 2, engine);
        const got = new Float64Array(37);
        const scratch = new Float64Array(5);
        let at = 0;
        for (const batch of [1, 10, 26]) {
          const out = new Float64Array(batch);
          signs.signedSums(d, out, batch);
          got.set(out, at);
          at += batch;
          other.signedSums(d, scratch, 5);
        }
        assert.deepEqual([...got], [...want], `${engine}, seed ${JSON.stringify(seed)}, t = ${t}`);
      }
    }
  }
  assert.throws(() => clusterDraws("s", 3, "js").signedSums(new Float64Array(2), new Float64Array(1), 1), /must be 2/);
});
