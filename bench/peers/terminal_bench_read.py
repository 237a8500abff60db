"""Peer of `gcpc import terminal-bench` for `npm run bench -- import`: the least an importer of this tree must
do, with the fastest JSON parser this machine has (orjson, Rust/SIMD; else the C-accelerated json module):
walk the tree, parse every results file, keep each trial once (by id, else run and trial name) with its task,
outcome and per-test results. Prints the trial count, seconds and the parser used.
Usage: python3 bench/peers/terminal_bench_read.py ROOT"""
import json
import os
import sys
import time

try:
    import orjson

    parse, parser = orjson.loads, f"orjson {orjson.__version__}"
except ImportError:
    parse, parser = json.loads, "json (stdlib C)"

t0 = time.perf_counter()
trials = {}
for d, _, files in os.walk(sys.argv[1]):
    for f in sorted(files):
        if f != "results.json" and not f.endswith("_results.json"):
            continue
        with open(os.path.join(d, f), "rb") as fh:
            doc = parse(fh.read())
        found = doc["results"] if "results" in doc else [doc]
        for t in found:
            key = t.get("id") or (d, t.get("trial_name"))
            if key not in trials:
                trials[key] = (t.get("task_id"), t.get("is_resolved"), t.get("parser_results"))
print(json.dumps({"trials": len(trials), "seconds": time.perf_counter() - t0, "parser": parser}))
