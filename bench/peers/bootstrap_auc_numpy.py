"""The vectorised peer of our clustered bootstrap AUC, run by bench/bootstrap-bench.ts.

Reads the bench's data (float64 scores, uint8 outcomes, int32 task ids) from the files named on the
command line and times the fastest numpy formulation we know for tie-heavy scores: a dense
level x task count matrix for PASS and FAIL, multinomial task weights for all resamples at once, one
matrix product per class, cumulative sums over levels. Prints JSON: best-of-runs milliseconds and
the percentile interval (a sanity check that both compute the same statistic).

usage: python3 bootstrap_auc_numpy.py SCORES PASS CLUSTER TASKS RESAMPLES RUNS
"""
import json, sys, time
import numpy as np

scores = np.fromfile(sys.argv[1], dtype=np.float64)
passed = np.fromfile(sys.argv[2], dtype=np.uint8).astype(bool)
cluster = np.fromfile(sys.argv[3], dtype=np.int32)
tasks, resamples, runs = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])


def bootstrap(seed):
    levels, level = np.unique(scores, return_inverse=True)
    pos = np.zeros((len(levels), tasks))
    neg = np.zeros((len(levels), tasks))
    np.add.at(pos, (level[passed], cluster[passed]), 1)
    np.add.at(neg, (level[~passed], cluster[~passed]), 1)
    rng = np.random.default_rng(seed)
    w = rng.multinomial(tasks, np.full(tasks, 1 / tasks), size=resamples).astype(np.float64)
    lp = w @ pos.T  # resamples x levels
    ln = w @ neg.T
    below = np.cumsum(ln, axis=1) - ln
    auc = (lp * (below + 0.5 * ln)).sum(axis=1) / (lp.sum(axis=1) * ln.sum(axis=1))
    return np.percentile(auc[np.isfinite(auc)], [2.5, 97.5]), len(levels)


best = float("inf")
for r in range(runs):
    t0 = time.perf_counter()
    ci, n_levels = bootstrap(r)
    best = min(best, (time.perf_counter() - t0) * 1000)
print(json.dumps({"ms": best, "ci": list(ci), "levels": n_levels}))
