;; An AUC's per-level packed totals for one weight vector (analysis/stats/clustered-auc.ts, gatherTotals):
;; out[l] = sum over the groups g of level l of w[cluster[g]] * packed[g], with four running sums as the
;; JavaScript loop keeps. In WebAssembly the loop runs without bounds checks or deoptimisation guards:
;; 0.4-0.5 ns a group against 1.6-2.4 in JavaScript. The sums are exact integers (ClusteredAuc uses it
;; only for weights whose packed totals are exact), so any order of addition gives the same bits.
;; Assembled by scripts/build-wasm.ts into level-totals-bytes.ts; analysis/stats/level-totals.ts drives it.
(module
  (memory (export "memory") 1)

  ;; w: f64 per cluster; cluster: i32 and packed: f64 per group, in level order; end: i32 per level, one
  ;; past its last group; out: f64 per level. All byte offsets.
  (func (export "levelTotals") (param $w i32) (param $cluster i32) (param $packed i32) (param $end i32)
      (param $levels i32) (param $out i32)
    (local $l i32) (local $g i32) (local $e i32) (local $ci i32) (local $pi i32)
    (local $s0 f64) (local $s1 f64) (local $s2 f64) (local $s3 f64)
    (block $done
      (loop $level
        (br_if $done (i32.ge_u (local.get $l) (local.get $levels)))
        (local.set $e (i32.load (i32.add (local.get $end) (i32.shl (local.get $l) (i32.const 2)))))
        (local.set $s0 (f64.const 0))
        (local.set $s1 (f64.const 0))
        (local.set $s2 (f64.const 0))
        (local.set $s3 (f64.const 0))
        (block $quadsDone
          (loop $quad
            (br_if $quadsDone (i32.ge_s (i32.add (local.get $g) (i32.const 3)) (local.get $e)))
            (local.set $ci (i32.add (local.get $cluster) (i32.shl (local.get $g) (i32.const 2))))
            (local.set $pi (i32.add (local.get $packed) (i32.shl (local.get $g) (i32.const 3))))
            (local.set $s0
              (f64.add (local.get $s0)
                (f64.mul
                  (f64.load (i32.add (local.get $w) (i32.shl (i32.load (local.get $ci)) (i32.const 3))))
                  (f64.load (local.get $pi)))))
            (local.set $s1
              (f64.add (local.get $s1)
                (f64.mul
                  (f64.load (i32.add (local.get $w) (i32.shl (i32.load offset=4 (local.get $ci)) (i32.const 3))))
                  (f64.load offset=8 (local.get $pi)))))
            (local.set $s2
              (f64.add (local.get $s2)
                (f64.mul
                  (f64.load (i32.add (local.get $w) (i32.shl (i32.load offset=8 (local.get $ci)) (i32.const 3))))
                  (f64.load offset=16 (local.get $pi)))))
            (local.set $s3
              (f64.add (local.get $s3)
                (f64.mul
                  (f64.load (i32.add (local.get $w) (i32.shl (i32.load offset=12 (local.get $ci)) (i32.const 3))))
                  (f64.load offset=24 (local.get $pi)))))
            (local.set $g (i32.add (local.get $g) (i32.const 4)))
            (br $quad)))
        (block $restDone
          (loop $rest
            (br_if $restDone (i32.ge_s (local.get $g) (local.get $e)))
            (local.set $s0
              (f64.add (local.get $s0)
                (f64.mul
                  (f64.load
                    (i32.add (local.get $w)
                      (i32.shl (i32.load (i32.add (local.get $cluster) (i32.shl (local.get $g) (i32.const 2))))
                        (i32.const 3))))
                  (f64.load (i32.add (local.get $packed) (i32.shl (local.get $g) (i32.const 3)))))))
            (local.set $g (i32.add (local.get $g) (i32.const 1)))
            (br $rest)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $l) (i32.const 3)))
          (f64.add (f64.add (local.get $s0) (local.get $s1)) (f64.add (local.get $s2) (local.get $s3))))
        (local.set $l (i32.add (local.get $l) (i32.const 1)))
        (br $level))))

  ;; The same totals from a dense level x cluster table (row l: every cluster's packed counts at level l), for
  ;; when most cells are filled (GCPC's few levels on many tasks): out[l] = w . row l, contiguous loads two
  ;; lanes at a time instead of a gather through the groups' clusters.
  (func (export "denseTotals") (param $w i32) (param $dense i32) (param $levels i32) (param $k i32) (param $out i32)
    (local $l i32) (local $c i32) (local $row i32) (local $at i32) (local $a v128) (local $b v128) (local $s f64)
    (block $done
      (loop $level
        (br_if $done (i32.ge_u (local.get $l) (local.get $levels)))
        (local.set $row (i32.add (local.get $dense)
          (i32.shl (i32.mul (local.get $l) (local.get $k)) (i32.const 3))))
        (local.set $a (v128.const f64x2 0 0))
        (local.set $b (v128.const f64x2 0 0))
        (local.set $s (f64.const 0))
        (local.set $c (i32.const 0))
        (block $quadsDone
          (loop $quad
            (br_if $quadsDone (i32.gt_s (i32.add (local.get $c) (i32.const 4)) (local.get $k)))
            (local.set $at (i32.shl (local.get $c) (i32.const 3)))
            (local.set $a (f64x2.add (local.get $a)
              (f64x2.mul (v128.load (i32.add (local.get $w) (local.get $at)))
                (v128.load (i32.add (local.get $row) (local.get $at))))))
            (local.set $b (f64x2.add (local.get $b)
              (f64x2.mul (v128.load offset=16 (i32.add (local.get $w) (local.get $at)))
                (v128.load offset=16 (i32.add (local.get $row) (local.get $at))))))
            (local.set $c (i32.add (local.get $c) (i32.const 4)))
            (br $quad)))
        (block $restDone
          (loop $rest
            (br_if $restDone (i32.ge_s (local.get $c) (local.get $k)))
            (local.set $at (i32.shl (local.get $c) (i32.const 3)))
            (local.set $s (f64.add (local.get $s)
              (f64.mul (f64.load (i32.add (local.get $w) (local.get $at)))
                (f64.load (i32.add (local.get $row) (local.get $at))))))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))
            (br $rest)))
        (local.set $a (f64x2.add (local.get $a) (local.get $b)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $l) (i32.const 3)))
          (f64.add (local.get $s)
            (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a)))))
        (local.set $l (i32.add (local.get $l) (i32.const 1)))
        (br $level))))
)
