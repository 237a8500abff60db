"""The vectorised peer of our clustered bootstrap AUC, run by bench/bootstrap-bench.ts.

Reads the bench's data (float64 scores, uint8 outcomes, int32 task ids) from the files named on the
command line and times the two strongest numpy formulations we know, each end to end (counts, draws,
AUC of every draw, percentile interval), on single-threaded BLAS (the bench sets OPENBLAS_NUM_THREADS=1):

(a) the level form: one bincount gives the (task, level, class) counts [P N] (tasks x 2 levels); one
    bincount of the drawn task indices gives the resample weights W (resamples x tasks); one product
    W @ [P N] and a cumulative sum over levels give every draw's AUC.
(b) the task-pair quadratic form: C[k, k'] = #(PASS in task k, FAIL in task k', s_PASS > s_FAIL)
    + 1/2 #ties, computed once as P @ (cumsum(N) - N/2)^T over levels; each draw's AUC is then
    w'Cw / ((w.pos)(w.neg)): one product W @ C and a row-wise dot with W, whatever n and the levels.

(a') the level form as lean as numpy allows (int32 draws offset in place, one bincount, one product, einsum
    for the row sums, operations in place): the strongest peer at the paper's scale.
All give the exact AUC of each draw (integer weights: sums of integers and halves). Each form is called once
to warm up, then RUNS times; prints JSON: each form's median milliseconds ("ms", what a user pays per call)
and best, the fastest form's as "ms", and the percentile interval of each (a sanity check that they and ours
compute the same statistic).

usage: python3 bootstrap_auc_numpy.py SCORES PASS CLUSTER TASKS RESAMPLES RUNS
"""
import json, sys, time
import numpy as np

scores = np.fromfile(sys.argv[1], dtype=np.float64)
passed = np.fromfile(sys.argv[2], dtype=np.uint8).astype(np.int64)
cluster = np.fromfile(sys.argv[3], dtype=np.int32).astype(np.int64)
tasks, resamples, runs = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])


def counts():
    """(task, level, class) counts in one bincount: P and N as tasks x levels."""
    levels, level = np.unique(scores, return_inverse=True)
    L = len(levels)
    cnt = np.bincount((cluster * L + level) * 2 + passed, minlength=tasks * L * 2).reshape(tasks, L, 2)
    return cnt[:, :, 1].astype(np.float64), cnt[:, :, 0].astype(np.float64), L


def weights(seed):
    """Each resample's task weights: one bincount of the drawn indices (resamples x tasks)."""
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, tasks, size=(resamples, tasks)) + (np.arange(resamples) * tasks)[:, None]
    return np.bincount(drawn.ravel(), minlength=resamples * tasks).reshape(resamples, tasks).astype(np.float64)


def interval(auc):
    return np.percentile(auc[np.isfinite(auc)], [2.5, 97.5])


def level_form(seed):
    P, N, L = counts()
    W = weights(seed)
    M = W @ np.concatenate([P, N], axis=1)  # resamples x 2L
    p, n = M[:, :L], M[:, L:]
    below = np.cumsum(n, axis=1) - n
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (p * (below + 0.5 * n)).sum(axis=1) / (p.sum(axis=1) * n.sum(axis=1))
    return interval(auc), L


def level_form_lean(seed):
    """The level form as lean as numpy allows: int32 draws offset in place, one bincount, one product,
    the cumulative sum turned into 'below + half the ties' in place, einsum for the row sums."""
    P, N, L = counts()
    PN = np.concatenate([P, N], axis=1)
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, tasks, size=(resamples, tasks), dtype=np.int32)
    drawn += (np.arange(resamples, dtype=np.int32) * tasks)[:, None]
    W = np.bincount(drawn.ravel(), minlength=resamples * tasks).reshape(resamples, tasks).astype(np.float64)
    M = W @ PN
    p, n = M[:, :L], M[:, L:]
    below = np.cumsum(n, axis=1)
    below -= 0.5 * n
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = np.einsum("ij,ij->i", p, below) / (np.einsum("ij->i", p) * np.einsum("ij->i", n))
    return interval(auc), L


def quadratic_form(seed):
    P, N, L = counts()
    C = P @ (np.cumsum(N, axis=1) - 0.5 * N).T  # tasks x tasks
    pos, neg = P.sum(axis=1), N.sum(axis=1)
    W = weights(seed)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = ((W @ C) * W).sum(axis=1) / ((W @ pos) * (W @ neg))
    return interval(auc), L


def timed(form):
    """Median of `runs` calls after one warm-up call (what a user pays per call), and the best of them."""
    form(0)
    times = []
    for r in range(runs):
        t0 = time.perf_counter()
        ci, levels = form(r + 1)
        times.append((time.perf_counter() - t0) * 1000)
    return {"ms": float(np.median(times)), "best_ms": min(times), "ci": list(ci)}


out = {}
n_levels = len(np.unique(scores))
for name, form in [("level", level_form), ("level_lean", level_form_lean), ("quadratic", quadratic_form)]:
    if name.startswith("level") and n_levels * resamples > 2e7:
        continue  # resamples x levels would not fit in memory (continuous scores): the quadratic form's case
    out[name] = timed(form)
fastest = min(out, key=lambda k: out[k]["ms"])
best = out[fastest]
print(json.dumps({"ms": best["ms"], "best_ms": best["best_ms"], "form": fastest, "ci": best["ci"], "levels": n_levels,
                  "forms": out}))
