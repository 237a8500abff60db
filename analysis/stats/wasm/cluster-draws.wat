;; Cluster-bootstrap draws from seedrandom's xor4096 stream (Brent's xorgens, analysis/stats/xor4096.ts),
;; in WebAssembly: the generator four numbers at a time in SIMD lanes, then each number's cluster counted.
;; Assembled by scripts/build-wasm.ts into cluster-draws-bytes.ts; test/cluster-draws.test.ts checks the
;; bytes against this file and every count against the JavaScript generator.
;;
;; Memory (one page to start; the counts grow it):
;;   0..1023     x[0..255], i32: the 128-word state; x[128 + k] repeats this cycle's new x[k] (see $cycle)
;;   1024        w, i32: the Weyl sequence's last value
;;   1028        pos, i32: the next unread number of the cycle buffer (128 = none left)
;;   2048..2559  the cycle buffer: 128 outputs, u32
;;   4096..      counts, f64: the draw's cluster multiplicities
(module
  (memory (export "memory") 1)

  ;; One cycle of the generator: the 128 numbers that follow, into the cycle buffer. Number k of the
  ;; cycle replaces x[k] with f(x[k + 33], x[k]), where x[k + 33] is the value 95 numbers back (for
  ;; k + 33 >= 128 it is x[k - 95], already replaced this cycle, read through the repeat at 128..).
  ;; No lane of a vector reads a word another lane writes (33 > 3), so four numbers at a time give
  ;; the same words as one at a time. The stream starts a cycle at word 0 (seedrandom leaves i = 127).
  (func $cycle
    (local $j i32) (local $out i32) (local $w v128) (local $v v128) (local $t v128) (local $nx v128)
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
      (local.set $nx (v128.xor (local.get $v) (local.get $t)))
      (v128.store (local.get $j) (local.get $nx))
      (v128.store offset=512 (local.get $j) (local.get $nx))
      ;; The output: x[i] + (w ^ (w >>> 16)), mod 2^32.
      (v128.store (local.get $out)
        (i32x4.add (local.get $nx) (v128.xor (local.get $w) (i32x4.shr_u (local.get $w) (i32.const 16)))))
      (local.set $w (i32x4.add (local.get $w) (i32x4.splat (i32.const 0x8722191c))))
      (local.set $out (i32.add (local.get $out) (i32.const 16)))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br_if $vec (i32.lt_u (local.get $j) (i32.const 512))))
    ;; Lane 0 now holds the last value + c: store the last value.
    (i32.store (i32.const 1024) (i32.sub (i32x4.extract_lane 0 (local.get $w)) (i32.const 0x61c88647)))
    (i32.store (i32.const 1028) (i32.const 0)))

  ;; One draw: counts[0..n) := 0, then counts[(u * n) >> 32] += 1 for the next n outputs u (u32). For
  ;; n < 2^21, u * n < 2^53, so this is floor(u * (n / 2^32)) as Xor4096.addDraw takes it in doubles.
  (func (export "draw") (param $n i32)
    (local $left i32) (local $pos i32) (local $end i32) (local $p i32) (local $n64 i64)
    (local.set $n64 (i64.extend_i32_u (local.get $n)))
    (memory.fill (i32.const 4096) (i32.const 0) (i32.shl (local.get $n) (i32.const 3)))
    (local.set $left (local.get $n))
    (local.set $pos (i32.load (i32.const 1028)))
    (block $done
      (loop $run
        (br_if $done (i32.eqz (local.get $left)))
        (if (i32.eq (local.get $pos) (i32.const 128))
          (then (call $cycle) (local.set $pos (i32.const 0))))
        ;; This run: what is left of the buffer or of the draw, whichever is less.
        (local.set $end (i32.sub (i32.const 128) (local.get $pos)))
        (if (i32.lt_u (local.get $left) (local.get $end)) (then (local.set $end (local.get $left))))
        (local.set $left (i32.sub (local.get $left) (local.get $end)))
        (local.set $end (i32.add (local.get $end) (local.get $pos)))
        (loop $number
          (local.set $p
            (i32.add (i32.const 4096)
              (i32.shl
                (i32.wrap_i64
                  (i64.shr_u
                    (i64.mul
                      (i64.extend_i32_u (i32.load offset=2048 (i32.shl (local.get $pos) (i32.const 2))))
                      (local.get $n64))
                    (i64.const 32)))
                (i32.const 3))))
          (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (f64.const 1)))
          (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
          (br_if $number (i32.lt_u (local.get $pos) (local.get $end))))
        (br $run)))
    (i32.store (i32.const 1028) (local.get $pos)))
)
