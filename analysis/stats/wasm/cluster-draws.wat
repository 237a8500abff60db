;; Cluster-bootstrap draws from seedrandom's xor4096 stream (Brent's xorgens, analysis/stats/xor4096.ts),
;; in WebAssembly: the generator four numbers at a time in SIMD lanes, each number mapped to the cluster
;; it picks, then the draw counted (`draw`) or four sums of a linear statistic taken (`sums`), or, with two
;; clusters, each number read as a sign (`signedSums`: the sign-flip test's Monte Carlo draws).
;; Assembled by scripts/build-wasm.ts into cluster-draws-bytes.ts; test/cluster-draws.test.ts checks the
;; bytes against this file and every count against the JavaScript generator.
;;
;; Memory (one page to start; the caller grows it for a draw's arrays, placed from byte 4096 on):
;;   0..1023     x[0..255], i32: the 128-word state; x[128 + k] repeats this cycle's new x[k] (see $cycle)
;;   1024        w, i32: the Weyl sequence's last value
;;   1028        pos, i32: the next unread number of the cycle buffer (128 = none left)
;;   2048..2559  the cycle buffer: the clusters its 128 numbers pick, i32 (of the stream's n clusters)
(module
  (memory (export "memory") 1)

  ;; One cycle of the generator: the 128 numbers that follow, as the clusters they pick among n, into
  ;; the cycle buffer. Number k of the cycle replaces x[k] with f(x[k + 33], x[k]), where x[k + 33] is
  ;; the value 95 numbers back (for k + 33 >= 128 it is x[k - 95], already replaced this cycle, read
  ;; through the repeat at 128..). No lane of a vector reads a word another lane writes (33 > 3), so
  ;; four numbers at a time give the same words as one at a time. Every stream starts a cycle at word 0
  ;; (seedrandom leaves i = 127). The output u = x[k] + (w ^ (w >>> 16)) (u32) picks cluster
  ;; (u * n) >> 32: for n < 2^21, u * n < 2^53, so this is floor(u * (n / 2^32)) as Xor4096.addDraw
  ;; takes it in doubles.
  (func $cycle (param $n i32)
    (local $j i32) (local $out i32) (local $w v128) (local $v v128) (local $t v128) (local $u v128)
    (local $nv v128)
    (local.set $nv (i32x4.splat (local.get $n)))
    (local.set $out (i32.const 2048))
    ;; Lanes hold w + c, w + 2c, w + 3c, w + 4c (c = 0x61c88647, the Weyl step, mod 2^32).
    (local.set $w
      (i32x4.add
        (i32x4.splat (i32.load (i32.const 1024)))
        (v128.const i32x4 0x61c88647 0xc3910c8e 0x255992d5 0x8722191c)))
    (loop $vec
      (local.set $t (v128.load (local.get $j)))
      (local.set $v (v128.load offset=132 (local.get $j)))
      (local.set $v (v128.xor (local.get $v) (i32x4.shl (local.get $v) (i32.const 13))))
      (local.set $t (v128.xor (local.get $t) (i32x4.shl (local.get $t) (i32.const 17))))
      (local.set $v (v128.xor (local.get $v) (i32x4.shr_u (local.get $v) (i32.const 15))))
      (local.set $t (v128.xor (local.get $t) (i32x4.shr_u (local.get $t) (i32.const 12))))
      (local.set $u (v128.xor (local.get $v) (local.get $t)))
      (v128.store (local.get $j) (local.get $u))
      (v128.store offset=512 (local.get $j) (local.get $u))
      (local.set $u
        (i32x4.add (local.get $u) (v128.xor (local.get $w) (i32x4.shr_u (local.get $w) (i32.const 16)))))
      ;; The high halves of the four products u * n (u64).
      (v128.store (local.get $out)
        (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31
          (i64x2.extmul_low_i32x4_u (local.get $u) (local.get $nv))
          (i64x2.extmul_high_i32x4_u (local.get $u) (local.get $nv))))
      (local.set $w (i32x4.add (local.get $w) (i32x4.splat (i32.const 0x8722191c))))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $vec (i32.lt_u (local.get $j) (i32.const 512))))
    ;; Lane 0 now holds the last value + c: store the last value.
    (i32.store (i32.const 1024) (i32.sub (i32x4.extract_lane 0 (local.get $w)) (i32.const 0x61c88647))))

  ;; The clusters the next n numbers pick, as i32 at byte `to`.
  (func $clusters (param $n i32) (param $to i32)
    (call $clustersOf (local.get $n) (local.get $n) (local.get $to)))

  ;; The clusters (of n) the next `count` numbers pick, as i32 at byte `to`: the cycle buffer's rest, then new
  ;; cycles. A stream keeps one n: the buffer holds clusters of the n it was filled for.
  (func $clustersOf (param $count i32) (param $n i32) (param $to i32)
    (local $left i32) (local $pos i32) (local $run i32)
    (local.set $left (local.get $count))
    (local.set $pos (i32.load (i32.const 1028)))
    (block $done
      (loop $runs
        (br_if $done (i32.eqz (local.get $left)))
        (if (i32.eq (local.get $pos) (i32.const 128))
          (then (call $cycle (local.get $n)) (local.set $pos (i32.const 0))))
        ;; What is left of the buffer or of the draw, whichever is less, copied.
        (local.set $run (i32.sub (i32.const 128) (local.get $pos)))
        (if (i32.lt_u (local.get $left) (local.get $run)) (then (local.set $run (local.get $left))))
        (memory.copy
          (local.get $to)
          (i32.add (i32.const 2048) (i32.shl (local.get $pos) (i32.const 2)))
          (i32.shl (local.get $run) (i32.const 2)))
        (local.set $to (i32.add (local.get $to) (i32.shl (local.get $run) (i32.const 2))))
        (local.set $pos (i32.add (local.get $pos) (local.get $run)))
        (local.set $left (i32.sub (local.get $left) (local.get $run)))
        (br $runs)))
    (i32.store (i32.const 1028) (local.get $pos)))

  ;; One draw of n clusters as counts (f64 at byte `counts`): zeroed, then counts[c] += 1 for each cluster
  ;; picked. `picked` is room for n i32.
  (func (export "draw") (param $n i32) (param $picked i32) (param $counts i32)
    (local $k i32) (local $end i32) (local $p i32)
    (call $clusters (local.get $n) (local.get $picked))
    (memory.fill (local.get $counts) (i32.const 0) (i32.shl (local.get $n) (i32.const 3)))
    (local.set $k (local.get $picked))
    (local.set $end (i32.add (local.get $picked) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (loop $number
        (br_if $done (i32.ge_u (local.get $k) (local.get $end)))
        (local.set $p (i32.add (local.get $counts) (i32.shl (i32.load (local.get $k)) (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (f64.const 1)))
        (local.set $k (i32.add (local.get $k) (i32.const 4)))
        (br $number))))

  ;; One draw of n clusters as four sums (f64 at byte `out`): each cluster c picked adds its row of four
  ;; values (f64 at byte `table` + 32c), two lanes at a time, into two pairs of running sums taken in
  ;; turn (the values are halves and integers whose sums are exact, so the order changes no bit).
  (func $sums (export "sums") (param $n i32) (param $picked i32) (param $table i32) (param $out i32)
    (local $k i32) (local $end i32) (local $row i32)
    (local $a01 v128) (local $a23 v128) (local $b01 v128) (local $b23 v128)
    (call $clusters (local.get $n) (local.get $picked))
    (local.set $k (local.get $picked))
    (local.set $end (i32.add (local.get $picked) (i32.shl (local.get $n) (i32.const 2))))
    (block $pairsDone
      (loop $pair
        (br_if $pairsDone (i32.ge_u (i32.add (local.get $k) (i32.const 4)) (local.get $end)))
        (local.set $row (i32.add (local.get $table) (i32.shl (i32.load (local.get $k)) (i32.const 5))))
        (local.set $a01 (f64x2.add (local.get $a01) (v128.load (local.get $row))))
        (local.set $a23 (f64x2.add (local.get $a23) (v128.load offset=16 (local.get $row))))
        (local.set $row (i32.add (local.get $table) (i32.shl (i32.load offset=4 (local.get $k)) (i32.const 5))))
        (local.set $b01 (f64x2.add (local.get $b01) (v128.load (local.get $row))))
        (local.set $b23 (f64x2.add (local.get $b23) (v128.load offset=16 (local.get $row))))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $pair)))
    (if (i32.lt_u (local.get $k) (local.get $end))
      (then
        (local.set $row (i32.add (local.get $table) (i32.shl (i32.load (local.get $k)) (i32.const 5))))
        (local.set $a01 (f64x2.add (local.get $a01) (v128.load (local.get $row))))
        (local.set $a23 (f64x2.add (local.get $a23) (v128.load offset=16 (local.get $row))))))
    (v128.store (local.get $out) (f64x2.add (local.get $a01) (local.get $b01)))
    (v128.store offset=16 (local.get $out) (f64x2.add (local.get $a23) (local.get $b23))))

  ;; `count` draws of signed sums, draw j's at byte `out` + 8j: each takes the next t numbers as the clusters they
  ;; pick among 2 (0 is u < 1/2) and adds +d[k] for cluster 0, −d[k] for cluster 1 (f64 at byte `d` + 8k), in
  ;; order from +0: the same additions, so the same bits, as Xor4096.signedSum. `picked` is room for t i32.
  (func (export "signedSums") (param $t i32) (param $picked i32) (param $d i32) (param $out i32) (param $count i32)
    (local $k i32) (local $s f64) (local $x f64)
    (block $done
      (loop $draw
        (br_if $done (i32.eqz (local.get $count)))
        (call $clustersOf (local.get $t) (i32.const 2) (local.get $picked))
        (local.set $s (f64.const 0))
        (local.set $k (i32.const 0))
        (block $summed
          (loop $term
            (br_if $summed (i32.ge_u (local.get $k) (local.get $t)))
            (local.set $x (f64.load (i32.add (local.get $d) (i32.shl (local.get $k) (i32.const 3)))))
            (local.set $s
              (f64.add (local.get $s)
                (select (local.get $x) (f64.neg (local.get $x))
                  (i32.eqz (i32.load (i32.add (local.get $picked) (i32.shl (local.get $k) (i32.const 2))))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $term)))
        (f64.store (local.get $out) (local.get $s))
        (local.set $out (i32.add (local.get $out) (i32.const 8)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $draw))))

  ;; `count` draws in a row as sums, draw d's four at byte `out` + 32d: one call for a bootstrap's draws
  ;; instead of one per draw (the call and the JavaScript around it cost as much as a draw of 25 clusters).
  (func (export "sumsMany") (param $n i32) (param $picked i32) (param $table i32) (param $out i32) (param $count i32)
    (block $done
      (loop $draw
        (br_if $done (i32.eqz (local.get $count)))
        (call $sums (local.get $n) (local.get $picked) (local.get $table) (local.get $out))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $draw))))
)
