import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

/** Help text per command; `gcpc help CMD` prints one, an unknown CMD is a usage error. */
export const HELP: Record<string, string> = {
  main: `gcpc — GCPC workbench: validate verdict stores and reproduce the paper's analyses

Usage:
  gcpc validate STORE                 check a store against the contract (docs/verdict-store.md)
  gcpc report STORE [options]         run RQ1–RQ5 and print the paper's tables
  gcpc site STORE --out DIR           build the static report site for STORE
  gcpc generate OUT --seed N          write a synthetic demo store (Parquet)
  gcpc import harbor DIR... --out STORE        import Harbor/SkillsBench trial folders
  gcpc import skillsbench-registry FILE.csv --out STORE   import registry cells
  gcpc import terminal-bench|tau2|inspect INPUT... --out STORE   import harness runs
  gcpc import devai DIR | table FILE --out STORE   import graded / hierarchical rubric verdicts
  gcpc import metr FILE --out STORE   import METR's task runs (all_runs.jsonl[.gz])
  gcpc power STORE [options]          power of the paired ΔAUC, or with --a/--b of a two-arm comparison
  gcpc compare STORE --a SEL --b SEL  any two arms, matched and task-clustered (pass rate, transitions, items)
  gcpc leaderboard STORE [--by F,...] every arm with its CI, pairwise comparisons, rank intervals
  gcpc judges STORE                   each judge against the reference judge, and judge-corrected means
  gcpc items STORE                    which checklist items to fix: constant, wrong sign, redundant, misjudged
  gcpc points STORE                   a points rubric (signed points per item): scores per arm, penalty rates
  gcpc consensus STORE                several judges, few humans: each judge's error rates (Dawid–Skene), consensus
  gcpc gate STORE --baseline SEL --candidate SEL   a verdict for CI: better, not worse, worse, inconclusive
  gcpc history STORE --by F --order FILE|FIELD     successive versions, each step gated against the one before
  gcpc copy STORE clickhouse://HOST:PORT/DB [--cluster NAME]   write a store into ClickHouse
  gcpc help COMMAND                   help for one command
  gcpc --version

Exit codes: 0 ok, 1 internal error (a bug: please report it), 2 bad input or usage; gcpc gate adds 1 for a
regression and 3 for inconclusive (gcpc help gate).
A store may be a ClickHouse database (clickhouse://HOST:HTTP_PORT/DATABASE); --timeout SECONDS (default 300)
bounds each request to it.
Nothing is ever written into a store, over an input, or over an existing store.`,
  power: `gcpc power STORE [--tasks 12,30,87,150,300] [--per-task 10,20,50] [--simulations N] [--seed N]
                  [--format md|json]

How many tasks × trajectories per task the paired ΔAUC (gcpc − holistic) needs for its 95% CI
to exclude 0, from the store's own structure: each simulated study resamples the store's tasks,
then trajectories within each task, and runs the paired clustered test. Prints power with its
Monte Carlo SE and the minimum detectable Δ per design (default 400 studies per design).

gcpc power STORE --a FIELD=VALUE[,...] --b FIELD=VALUE[,...] [--where ...] [--tasks 20,40,80,160]
                 [--attempts 1,3,5] [--effects 0,0.05,0.1] [--method NAME] [--simulations N] [--seed N]

The two-arm design (gcpc compare, task pairing): how many tasks × attempts per arm detect the pass-rate
Δ and the score's Δ (GCPC by default), at the store's own effect and at given effects (δ = 0: the test's
false-positive rate). Each simulated study resamples the matched tasks, then each arm's attempts within
a task (default 1,000 studies per row).
gcpc power STORE --judge-corrected --arm FIELD=VALUE[,...] [--labelled 5,10,20,40] [--simulations N]: how many
tasks must the reference judge label for a judge-corrected interval of ±w: per number of labelled tasks, random
sets of the arm's reference-labelled tasks keep their labels, and the mean half-width of the corrected and of the
reference-only interval is printed.`,
  compare: `gcpc compare STORE --a FIELD=VALUE[,FIELD=VALUE...] --b FIELD=VALUE[,...] [--where FIELD=VALUE[,...]]
             [--pair trial|task] [--method NAME] [--judge NAME] [--metric pass^k|pass@k --k K]
             [--judge-corrected [--reference-tasks FILE] [--lambda X|classic]]
             [--format md|json|csv] [--seed N] [--resamples N] [--out FILE]

Compares two arms of a store (FIELD: harness, model, source, condition, benchmark, domain). A pair shares its
task and every field not named in --a, --b or --where (everything else equal). --pair trial matches attempt k
with attempt k (no trial index: never matched); --pair task compares each matched task's mean over its
attempts; without --pair, trial when every arm holds one attempt per task, else task (the output says which).
Prints the pass-rate Δ (b − a) with a task-clustered paired bootstrap CI and an exact paired test (McNemar for
trial pairs, the task-level sign-flip test for task pairs); under trial pairing the four outcome transitions
with the score's Δ (--method, default gcpc), its median with a CI and the shares beyond the noise floor
(measured between attempts of the same arm and task where there are repeats), and per-item exact McNemar
with BH q over the FAIL→FAIL pairs and over all pairs.
--metric pass^k|pass@k --k K: beside the pass rate, the Δ of each matched cell's pass^k (all of K attempts pass)
or pass@k (one of K passes) over each arm's own attempts, cells with fewer than K attempts of an arm left out.
--judge NAME: GCPC scored by NAME on every trajectory (by default each trajectory's scoring judge; arms scored by
different judges get a caveat). --judge-corrected: the GCPC Δ also as the store's reference_judge would have
scored both arms (prediction-powered inference on the matched units' differences; docs/statistics.md).`,
  leaderboard: `gcpc leaderboard STORE [--by harness,model] [--metric pass_rate|gcpc|pass^k|pass@k] [--k K]
                 [--judge NAME] [--top N] [--judge-corrected [--reference-tasks FILE] [--lambda X|classic]]
                 [--format md|json|csv] [--seed N] [--resamples N] [--out FILE]

One row per arm (the trajectories grouped by --by): its pass rate (or mean GCPC) with a task-clustered CI,
beside the figure public leaderboards print (mean over runs ± SE over runs, run = trial index); every pair of
arms compared on their common tasks (task-clustered CI, sign-flip test, Holm over all pairs); bootstrap rank
intervals (every arm re-ranked on each draw of the tasks) and the tie groups the data cannot separate.
--metric pass^k --k K: per task C(c,K)/C(n,K) over its n attempts with c passes (τ-bench's consistency), pass@k:
1 − C(n−c,K)/C(n,K); each averaged over the arm's tasks with n ≥ K attempts, with the same task-clustered intervals.
GCPC scores a trajectory by the store's primary judge, or by the one judge that labelled it when that is another;
--judge NAME scores every trajectory by NAME (one not labelled by NAME is left out).
--top N (default 20): the pairwise tests, Holm and the tie groups cover the top N arms by value (N arms make
N(N − 1)/2 tests); every arm keeps its interval and rank intervals, and the output says so.
--judge-corrected (with --metric gcpc): each arm's mean as the store's reference_judge would have scored it,
by prediction-powered inference (PPI++ power-tuned λ, re-tuned per draw and shrunk for few labelled tasks; or
--lambda X in [0, 1], or --lambda classic: classic PPI's N/(N − n)) with a stratified task-clustered
bootstrap; beside it the reference-only and judge-only means and the effective number of reference labels.
--reference-tasks FILE keeps the reference labels of the tasks listed (one id a line). docs/statistics.md.`,
  gate: `gcpc gate STORE --baseline FIELD=VALUE[,...] --candidate FIELD=VALUE[,...]
                [--metric pass_rate|gcpc|pass^k|pass@k[,...]] [--k K] [--margin D] [--alpha A]
                [--regression zero|margin] [--by FIELD] [--where SEL] [--guard cost|tokens|duration:+P%]
                [--on-inconclusive pass|fail] [--sequential [--goal any|better]]
                [--format md|json|junit] [--seed N] [--resamples N] [--out FILE]

A verdict a CI job can act on. Each metric (and, with --by, each value of FIELD) is compared as gcpc compare
compares two arms (the same matched units, task-clustered paired interval and exact test); Δ = candidate −
baseline with its two-sided interval at level 1 − α/K (Bonferroni over the K checks, α 0.05 by default):
worse when the upper bound is below 0 (--regression margin: below −D), better when the lower bound is above 0,
not worse when it is above −D (--margin D, on the metric's scale: 0.02 is 2 points), inconclusive otherwise;
insufficient data under 5 matched tasks. --guard cost:+10% (tokens, duration too; repeatable) checks the
candidate's mean cost per run against 1.1 × the baseline's (a task-clustered interval of the ratio, on the
trajectories' cost_usd, tokens, duration_s): better below 1, not worse below the guard, worse above it; guards
count in K. The gate's verdict is its worst check's. --format md (a pull-request
comment), json, junit (one test case per check).
Exit codes: 0 pass (better or not worse), 1 regression (worse), 3 inconclusive or insufficient data
(--on-inconclusive pass makes it 0, fail keeps 3), 2 bad input. docs/statistics.md has the decision table.
--sequential: early stopping that stays valid. Tasks enter in the order they completed (completed_at, else
started_at, else the store's order); after each, an anytime-valid confidence sequence (betting, Waudby-Smith &
Ramdas 2024) for the mean per-task Δ says continue (exit 3), or stops with better, not worse, equivalent (within
±D) (exit 0) or worse (exit 1), and how many tasks it used against the fixed design's. --goal better stops
only at better or worse (a not-worse look goes on while better is still possible); every stopping rule keeps the
sequence's level. Without a stop, the last look's decision is the verdict.`,
  history: `gcpc history STORE --order FILE|FIELD [--by model] [--metric pass_rate|gcpc] [--margin D]
                   [--alpha A] [--format md|json] [--seed N] [--resamples N] [--out FILE]

An agent's successive versions in order: each version's value with its task-clustered interval, then each step
(a version against the one before) gated as gcpc gate gates it, with α split over the steps (Bonferroni).
--order FILE: CSV or TSV with a header, the arm then what orders it (a date, a version), or NAME: VALUE lines;
arms it does not list are left out (said so). --order FIELD: each arm ordered by its runs' least value of the
field (started_at, completed_at, or an arm field). data/real/raw/metr-runs holds two lineage files.`,
  judges: `gcpc judges STORE [--format md|json] [--seed N] [--resamples N] [--out FILE]

One store's judges: which judges labelled it, the primary (scoring) one and the reference one (store.json
reference_judge); each judge against the reference item by item (units: (trajectory, item) both decided;
percent agreement, Cohen's κ, quadratic κ, Krippendorff's α, the sensitivity and specificity of the judge's Yes,
each with a task-clustered CI; overall and per item group) and the AUC of each judge's GCPC against the outcome,
paired; then each arm's mean GCPC corrected towards the reference judge (as gcpc leaderboard --metric gcpc
--judge-corrected), each row saying which figure to report. docs/statistics.md.`,
  consensus: `gcpc consensus STORE [--format md|json] [--seed N] [--resamples N] [--out FILE]

Several judges of the same items, few or no human labels: Dawid & Skene's latent-class model (1979), two classes,
fitted by EM from the majority vote. Each judge's sensitivity and specificity per item category (group, else
category) with task-clustered bootstrap intervals (the model refitted on each draw: --resamples, default 200);
where store.json names a reference judge with labels, its Yes/No fixes the truth of those units (anchors). Then the
consensus: each trajectory's mean P(true Yes) over its decided items, beside the majority vote's credit, and how
many units the two disagree on. Each judge's first run; Yes and No only. The consensus also scores: gcpc
leaderboard --metric gcpc --judge consensus and gcpc compare --judge consensus grade each item by its P(true Yes);
with --judge-corrected the consensus is the prediction corrected towards the reference judge, and is then fitted
without the reference's labels (two judges besides it needed). The site's Checklists page shows the same figures.
docs/statistics.md.`,
  points: `gcpc points STORE [--by FIELD] [--format md|json|csv] [--seed N] [--resamples N] [--out FILE]

A points rubric (items with signed points, contract rule 20; HealthBench's rule) from the primary judge's first run:
each trajectory earns the points of the items it meets (Yes 1, No 0, a grade its share; Abstain and not judged earn
nothing, NotApplicable leaves the rubric) over the sum of its applicable positive points. Per arm (--by FIELD:
harness, model, source, condition, benchmark, domain; one arm "all" without): the mean of those scores, unclipped,
and HealthBench's score, that mean clipped to [0, 1], each with a task-clustered bootstrap interval (a task's runs
resampled together, --resamples, default 2000); the share of runs that meet a negative-points item. Then each
penalty item's rate among its decided runs (Wilson interval). docs/statistics.md.`,
  items: `gcpc items STORE [--by FIELD] [--format md|json|csv] [--seed N] [--shuffles N] [--resamples N] [--out FILE]

Each checklist item from the primary judge's first run, within its task: how many trajectories it decided; its
difficulty (Yes rate, Wilson CI); whether it is constant; its discrimination against the official outcome (Yes rate
on PASS − on FAIL with Newcombe's CI, the item's AUC, point-biserial r) or, where the task has no PASS/FAIL
outcome, the item–rest r; a negative control (the outcomes, or rest scores, shuffled within the task --shuffles
times, default 1000; p < 0.05 counts as informative); items whose verdicts repeat another's on ≥ 98% of shared
trajectories; and, where store.json names a reference judge with labels, the judge's agreement, κ, sensitivity and
specificity on the item. Then the items to fix, ranked: wrong sign, judge unreliable (κ < 0.4 on ≥ 10 units),
constant, redundant. Per category (where items have one): the items pooled, Yes rate and PASS − FAIL with
intervals from a bootstrap resampling tasks (--resamples, default 2000). --by FIELD (harness, model, source,
condition, benchmark, domain): each item's Yes rate per value of the field, and the items whose rate is the same
in every value (they cannot separate those arms). docs/statistics.md.`,
  copy: `gcpc copy STORE clickhouse://HOST:HTTP_PORT/DATABASE [--cluster NAME] [--into] [--max-problems N]

Validates the store folder STORE, then writes its tables into the ClickHouse database (created when missing),
over the server's HTTP interface. validate, leaderboard, compare, power, report and site then read
clickhouse://HOST:HTTP_PORT/DATABASE wherever they take a store folder, with the same output; the per-row work
(the judgments' checks, their join to the checklists, their grouping per trajectory run) runs on the server.

  --cluster NAME   a cluster of the server's remote_servers: each table is a MergeTree table on every shard and
                   a Distributed table over them, sharded by task; the DDL runs ON CLUSTER (needs ZooKeeper)
  --into           the database already holds a store: merge into it (the same key rules as import --into:
                   identical rows are kept once, a key with other values is refused and nothing is written)

The tables are written under staging names and put in place by one RENAME: a reader never sees half a store.
A database that holds a store is refused without --into. scripts/clickhouse-cluster.sh starts a local
two-shard cluster (gcpc_two_shards) for trying it; docs/scaling.md says what runs where.`,
  validate: `gcpc validate STORE [--max-problems N]

Reads STORE (tables as .jsonl, .csv or .parquet; see docs/verdict-store.md), validates every
row, key and reference, and prints counts. Problems are listed with file, line or row, and
field (up to --max-problems, default 50). Exit 2 if invalid.`,
  report: `gcpc report STORE [--format md|json|csv|latex] [--seed N] [--resamples N]
                   [--out FILE] [--per-trajectory] [--paper | --no-paper] [--benchmark NAME]
                   [--interval percentile|bca|expanded|studentized] [--threads 1|2]

Runs RQ1–RQ5 on STORE and prints every table of the paper with CIs and n.
  --format         md (default); json (stable keys, see README); csv (tidy: one row per
                   figure, numeric columns); latex (one booktabs/longtable fragment per table)
  --seed           bootstrap seed (default ${DEFAULT_SETTINGS.seed})
  --resamples      bootstrap resamples per CI (default ${DEFAULT_SETTINGS.resamples}; the RQ1 AUC and ΔAUC
                   intervals are raised to ${DEFAULT_SETTINGS.headline_resamples} where an endpoint's Monte Carlo
                   SE exceeds 5% of the half-width; N sets all, with no raising)
  --out FILE       write to FILE atomically instead of stdout (never into a store or over an input)
  --per-trajectory include per-trajectory metrics (json only)
  --paper          show the paper's reported values beside ours (md, csv, latex; default for the
                   bundled demo store); --no-paper hides them
  --interval       percentile (default, the paper's: type-7 quantiles of the draws), bca (bias-corrected
                   and accelerated, Efron 1987; acceleration from the delete-one-task jackknife),
                   expanded (percentile widened for few tasks, Hesterberg 2015) or studentized (bootstrap-t
                   with Obuchowski's clustered SE on every draw, for AUC and paired ΔAUC; expanded elsewhere).
                   Measured under two models (README "Coverage"): expanded holds 91-96% at 12-87 tasks in
                   both; no method reaches 95% for the pooled AUC with unequal task sizes
  --benchmark NAME only that benchmark's tasks and everything attached to them (contract rule 4's
                   per-benchmark view; the paper's headline figures are SkillsBench-only)
  --threads 1|2    2 (default on a machine with a second core, for stores of 20,000 trajectories or
                   more): the RQ1 intervals and uplift rows are shared with a worker thread; 1: one
                   thread. The output is byte-identical either way (each interval is seeded by its figure)`,
  site: `gcpc site STORE --out DIR [--seed N] [--interval METHOD] [--cache DIR] [--order FILE]
gcpc site STORE --preview [--port N] [--seed N] [--interval METHOD] [--cache DIR]

Builds the static report site (Observable Framework) for STORE into DIR. The analysis runs
once; each store gets its own build cache keyed by its content, so a build can never show
another store. DIR must be new, empty or a previous site build; on failure it is left as it
was. The site needs no network: serve DIR with any static server
(python3 -m http.server -d DIR). --cache defaults to .site-cache/ in the repo. --interval
as for report (percentile by default; expanded is the most robust for few tasks, README "Coverage").
--preview (npm run dev): serves the repo's pages live (edits reload) on the data a build of STORE
with the same settings uses, computed once per store content, code and settings; no --out.
--order FILE: the History page's order of versions (as gcpc history --order FILE); without it the page orders
the versions by their first run when every run carries started_at, and is left out otherwise.`,
  import: `gcpc import KIND INPUT... (--out STORE | --into STORE) [KIND's own flags]

--out writes a new store (--format parquet|jsonl); --into adds the runs to an existing store, merged by the
store's keys: identical rows are kept once, a row that differs is refused and nothing is written.

gcpc import harbor DIR... --out STORE [--verdicts FILE.jsonl] [--checklists FILE.jsonl]
                                     [--benchmark NAME] [--format parquet|jsonl]
gcpc import skillsbench-registry FILE.csv --out STORE [--benchmark NAME] [--format parquet|jsonl]
gcpc import terminal-bench DIR... --out STORE [--harness H] [--model M] [--name NAME] [--format ...]
gcpc import tau2 RESULTS... [--judge-summaries FILE ...] --out STORE [--name NAME] [--format ...]
gcpc import inspect LOG... [--outcome SCORER] [--items SCORER] [--threshold X] --out STORE [--name NAME]
gcpc import devai DIR [--weights FILE.csv] --out STORE
gcpc import metr FILE --out STORE
gcpc import table FILE --out STORE --task COL (--item COL --label COL | --items COL,COL,...)
    [--model COL] [--harness COL] [--condition COL] [--trial COL] [--trajectory COL]
    [--judge NAME | --judge-column COL [--primary-judge NAME]] [--reference-judge NAME] [--scale MIN:MAX]
    [--not-applicable V,...] [--abstain V,...] [--skip-items ITEM,...] [--weights FILE] [--checklist FILE]
    [--evidence COL] [--item-text COL] [--prerequisites COL]
    [--outcome COL (--pass VALUE | --threshold X)] [--determines-outcome ITEM,...|all] [--outcomes FILE [--strict]]
    [--benchmark B] [--name N]

harbor: walks trial folders (result.json, config.json, verifier/ctrf.json) and writes an
outcome-level store: tasks, trajectories (condition from the path, outcome PASS when
reward = 1, FAIL when 0, non-binary otherwise; exceptions as tags) and verifier_results
from CTRF. --checklists adds items rows, --verdicts adds judgment rows (JSONL, contract
fields), merged by trajectory_id. Folders that cannot be read (broken JSON, dangling or
looping symbolic links, no permission) are listed and skipped; a folder reached twice
through links is imported once.
skillsbench-registry: one trajectory per trial of each cell (passCount of them PASS;
trial order unknown, so only cell-level analyses are meaningful).
terminal-bench: the trees tb run writes (and the leaderboard's): a trial's results.json, or a run's
(results[]), is a trajectory, deduplicated on the trial id (else run and trial name); harness and model
from the folder YYYYMMDD_<agent>_<model>, else run_metadata.json (--harness/--model override); trial =
order by run start within (harness, model, task); items = the tests of parser_results, outcome-
determining; passed Yes, failed No, absent Abstain; no parser_results: zero evidence, failure mode tag.
tau2: τ²-bench results files (.json or .json.gz): a simulation is a trajectory (task = domain/task id,
harness = agent implementation, model = agent LLM); every check of reward_info is an item (DB, ACTION:i,
NL_ASSERTION:i with its justification as evidence, COMMUNICATE:i, ENV_ASSERTION:i), outcome-determining
when its kind is in reward_basis; reward 1 PASS, 0 FAIL. Judge-viewer summaries (given as inputs or with
--judge-summaries) are one judge each (named by the prompt in the file name): pass / satisfied /
satisfactory / compliant / correct → 1, fail / failure / unsatisfactory / unsatisfied → 0, anything else
undecided (counted, left out).
inspect: .json and .eval logs (zip archives): a sample × epoch is a trajectory (trial = epoch); --outcome
names the scorer deciding PASS/FAIL (C/I, true/false, 1/0, or ≥ --threshold; default: a log's only scalar
scorer); --items names a dict-valued scorer (each key an item: C/true/1 Yes, I/false/0 No, else Abstain);
other scalar scorers become method scores.
metr: METR's all_runs.jsonl (.gz too; METR/eval-analysis-public): a run is a trajectory (model = alias, trial =
order by started_at within its task), outcome score_binarized, METR's score one graded outcome-determining item,
run times, duration, tokens and cost where given.
devai: the DevAI benchmark folder (judgment/<agent>/{human_as_a_judge,agent_as_a_judge/gray_box},
devai/instances): an agent × task is a trajectory, a requirement an item (prerequisites, category as group);
judges "human consensus" (reference) and "agent-as-a-judge (gray box)" (primary); outcome executed_successfully.
table: per-item grades from any pipeline (CSV, TSV, Parquet, JSONL; .gz too), long (--item/--label) or wide
(--items); --scale maps grades linearly to [0, 1], yes/no/true/false are 1/0; --outcomes is a table of
trajectory attributes joined on --task (and --trajectory); its rows that match no trajectory are listed
(--strict refuses them). --weights and --checklist (columns text, prerequisites, group, weight) join on the item
column and every other column they share with FILE (e.g. category and checklist_id); an item they would give two
values is refused, naming both rows. With --judge-column, the reference judge never scores: the scoring judge is
--primary-judge NAME, else the first other judge by name (said in the summary). --evidence, --item-text and
--prerequisites read a long table's columns. Writes a schema_version 2 store.
Every importer lists each input it cannot read (path and reason) on stderr and goes on; it exits 2 only
when nothing imports, and never leaves a partial store.
The new store is validated before it is kept; STORE must not exist or be empty.`,
  generate: `gcpc generate OUT --seed N [--scale F] [--format parquet|jsonl]

Writes a SYNTHETIC store from the latent-progress model of data/README.md to the new
folder OUT (refuses a non-empty folder). --scale multiplies the number of tasks (0 < F ≤ 1000).
Above 100 the store is written in shards of scale ≤ 25, each an independent demo store with
its own seed and ids prefixed "sK." (only one shard is held in memory; scale 430 is about
100× the paper: 2.1 M trajectories, 17 M judgments).`,
};
