;; One bootstrap draw of the task-pair form (analysis/stats/task-pair-auc.ts): with E = D + D' above the
;; diagonal, twice the Mann-Whitney numerator is w'Dw = sum over i of w_i (w_i D_ii + sum over j > i of w_j E_ij),
;; a row whose weight is 0 skipped whole; the draw's weighted PASS and FAIL totals come with it. The row's
;; dot product runs two f64x2 sums (four lanes), as the JavaScript loop keeps four running sums: in
;; JavaScript a step costs about 1.5 ns (bounds checks, the weights reloaded), here a fraction of that.
;; Every product and sum is an integer below 2^53 (TaskPairAuc checks the bound), so the lanes' order of
;; addition changes no bit. Assembled by scripts/build-wasm.ts into task-pair-form-bytes.ts.
(module
  (memory (export "memory") 1)

  ;; Byte offsets: w, pos, neg and diagonal hold k f64 each; upper holds k*k f64, row-major; totals gets
  ;; the draw's weighted PASS and FAIL totals (two f64). Returns w'Dw.
  (func (export "drawForm") (param $w i32) (param $pos i32) (param $neg i32) (param $diagonal i32)
      (param $upper i32) (param $k i32) (param $totals i32) (result f64)
    (local $i i32) (local $j i32) (local $wi f64) (local $row i32) (local $wj i32)
    (local $a v128) (local $b v128) (local $s f64) (local $twice f64) (local $tp f64) (local $tn f64)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
        (local.set $wi (f64.load (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 3)))))
        (if (f64.ne (local.get $wi) (f64.const 0))
          (then
            (local.set $tp (f64.add (local.get $tp) (f64.mul (local.get $wi)
              (f64.load (i32.add (local.get $pos) (i32.shl (local.get $i) (i32.const 3)))))))
            (local.set $tn (f64.add (local.get $tn) (f64.mul (local.get $wi)
              (f64.load (i32.add (local.get $neg) (i32.shl (local.get $i) (i32.const 3)))))))
            (local.set $s (f64.mul (local.get $wi)
              (f64.load (i32.add (local.get $diagonal) (i32.shl (local.get $i) (i32.const 3))))))
            (local.set $a (v128.const f64x2 0 0))
            (local.set $b (v128.const f64x2 0 0))
            ;; row: the byte address of E[i][0]; the walk starts at j = i + 1.
            (local.set $row (i32.add (local.get $upper)
              (i32.shl (i32.mul (local.get $i) (local.get $k)) (i32.const 3))))
            (local.set $j (i32.add (local.get $i) (i32.const 1)))
            (block $quadsDone
              (loop $quad
                (br_if $quadsDone (i32.gt_s (i32.add (local.get $j) (i32.const 4)) (local.get $k)))
                (local.set $wj (i32.shl (local.get $j) (i32.const 3)))
                (local.set $a (f64x2.add (local.get $a)
                  (f64x2.mul (v128.load (i32.add (local.get $w) (local.get $wj)))
                    (v128.load (i32.add (local.get $row) (local.get $wj))))))
                (local.set $b (f64x2.add (local.get $b)
                  (f64x2.mul (v128.load offset=16 (i32.add (local.get $w) (local.get $wj)))
                    (v128.load offset=16 (i32.add (local.get $row) (local.get $wj))))))
                (local.set $j (i32.add (local.get $j) (i32.const 4)))
                (br $quad)))
            (block $restDone
              (loop $rest
                (br_if $restDone (i32.ge_s (local.get $j) (local.get $k)))
                (local.set $wj (i32.shl (local.get $j) (i32.const 3)))
                (local.set $s (f64.add (local.get $s)
                  (f64.mul (f64.load (i32.add (local.get $w) (local.get $wj)))
                    (f64.load (i32.add (local.get $row) (local.get $wj))))))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (br $rest)))
            (local.set $a (f64x2.add (local.get $a) (local.get $b)))
            (local.set $twice (f64.add (local.get $twice)
              (f64.mul (local.get $wi)
                (f64.add (local.get $s)
                  (f64.add (f64x2.extract_lane 0 (local.get $a)) (f64x2.extract_lane 1 (local.get $a)))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))
    (f64.store (local.get $totals) (local.get $tp))
    (f64.store offset=8 (local.get $totals) (local.get $tn))
    (local.get $twice))
)
