// `node --import tsx bench/rank-coverage.ts [replicates=400] [resamples=1000]`: coverage of the leaderboard's
// rank intervals by simulation with known true ranks, marginal (`rank_ci`, per-arm bootstrap percentile) and
// simultaneous (`rank_ci_joint`, Mogstad et al. 2024). A script, not a test: it takes minutes. Its table is in
// docs/compare.md. Design (the audit): 8 arms, 80 tasks × 3 attempts, task effects; P(PASS) =
// Φ(u_t + θ_arm) with u_t ~ N(0, 1) shared by every arm on task t. Scenario "ties": θ = (0.6, 0.3, 0, 0, 0, 0,
// −0.3, −0.6), four arms tied; "spread": θ equally spaced by 0.15; "all tied": θ = 0. True rank of arm j =
// 1 + #{k: θ_k > θ_j} (a tied arm's rank is the best of its tie, as Mogstad et al. define it), and, as a second
// truth, the tie-averaged rank the marginal intervals estimate (1 + #{θ_k > θ_j} + #{k ≠ j: θ_k = θ_j}/2); an
// interval covers when it holds that rank. "All" = every arm covered at once in the replicate.
import seedrandom from "seedrandom";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { leaderboard } from "../analysis/rq/arms/leaderboard.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import type { Store } from "../analysis/schema/store.js";
import { normalCdf } from "../analysis/stats/obuchowski.js";

const TASKS = 80;
const ATTEMPTS = 3;
export const SCENARIOS: Record<string, number[]> = {
  ties: [0.6, 0.3, 0, 0, 0, 0, -0.3, -0.6],
  spread: [0.525, 0.375, 0.225, 0.075, -0.075, -0.225, -0.375, -0.525],
  "all tied": [0, 0, 0, 0, 0, 0, 0, 0],
};

function simulatedStore(rng: () => number, theta: number[]): Store {
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const tasks = Array.from({ length: TASKS }, (_, t) => ({ task_id: `t${t}`, benchmark: "sim-1", domain: "d" }));
  const trajectories: Store["trajectories"] = [];
  for (let t = 0; t < TASKS; t++) {
    const u = gauss();
    theta.forEach((th, a) => {
      for (let k = 1; k <= ATTEMPTS; k++)
        trajectories.push({
          trajectory_id: `t${t}-a${a}-k${k}`,
          task_id: `t${t}`,
          harness: "h",
          model: `arm${a}`,
          condition: "none",
          trial: k,
          outcome: rng() < normalCdf(u + th) ? "PASS" : "FAIL",
          log_hash: `sha256:${t}.${a}.${k}`,
        } as Store["trajectories"][number]);
    });
  }
  return {
    manifest: { name: "rank coverage (synthetic)", synthetic: true, schema_version: 1, judgments_optional: true },
    tasks,
    items: [],
    judgments: [],
    trajectories,
  } as unknown as Store;
}

const covers = (ci: [number, number] | null, rank: number) => ci !== null && ci[0] <= rank && rank <= ci[1];

/** The true ranks of a scenario: Mogstad et al.'s (best of a tie) and the tie-averaged ones. */
export function trueRanks(theta: number[]): { "best of tie": number[]; "tie-averaged": number[] } {
  const best = theta.map((x) => 1 + theta.filter((y) => y > x).length);
  const averaged = theta.map((x, j) => best[j] + (theta.filter((y) => y === x).length - 1) / 2);
  return { "best of tie": best, "tie-averaged": averaged };
}

function run(name: string, theta: number[], replicates: number, resamples: number) {
  const rng = seedrandom(`rank-coverage:${name}`);
  for (const [truth, trueRank] of Object.entries(trueRanks(theta)))
    print(name, truth, theta.length, replicates, coverage(rng, theta, trueRank, replicates, resamples));
}

export interface Coverage {
  /** Per arm, the replicates whose interval held its true rank. */
  hit: { marginal: number[]; joint: number[] };
  /** Replicates in which every arm's interval held its true rank. */
  all: { marginal: number; joint: number };
  /** Summed set sizes (upper − lower + 1) over replicates and arms. */
  width: { marginal: number; joint: number };
}

/** `replicates` simulated stores from `rng`, each ranked by the leaderboard with `resamples` draws (seed r). */
export function coverage(
  rng: () => number,
  theta: number[],
  trueRank: readonly number[],
  replicates: number,
  resamples: number,
): Coverage {
  const hit = { marginal: new Array(theta.length).fill(0), joint: new Array(theta.length).fill(0) };
  const all = { marginal: 0, joint: 0 };
  const width = { marginal: 0, joint: 0 };
  for (let r = 0; r < replicates; r++) {
    const board = leaderboard(prepareStore(simulatedStore(rng, theta)), {
      by: ["model"],
      settings: { ...DEFAULT_SETTINGS, seed: r, resamples },
    });
    if ("available" in board) throw new Error(board.reason);
    for (const kind of ["marginal", "joint"] as const) {
      let every = true;
      for (const row of board.rows) {
        const a = Number(row.arm.replace("arm", ""));
        const ci = kind === "marginal" ? row.rank_ci : row.rank_ci_joint;
        if (covers(ci, trueRank[a])) hit[kind][a]++;
        else every = false;
        width[kind] += ci ? ci[1] - ci[0] + 1 : 0;
      }
      if (every) all[kind]++;
    }
  }
  return { hit, all, width };
}

function print(name: string, truth: string, arms: number, replicates: number, c: Coverage) {
  const pct = (x: number) => `${((100 * x) / replicates).toFixed(1)}%`;
  const se = (x: number) => (100 * Math.sqrt((x / replicates) * (1 - x / replicates))) / Math.sqrt(replicates);
  for (const kind of ["marginal", "joint"] as const) {
    const each = c.hit[kind];
    console.log(
      `| ${name} | ${truth} | ${kind === "marginal" ? "rank_ci (marginal)" : "rank_ci_joint"} | ` +
        `${pct(Math.min(...each))}–${pct(Math.max(...each))} | ${pct(c.all[kind])} ± ${se(c.all[kind]).toFixed(1)} | ` +
        `${(c.width[kind] / replicates / arms).toFixed(2)} |`,
    );
  }
}

// Run as a script (imported by test/rank-coverage.test.ts, it only defines).
if (import.meta.url === `file://${process.argv[1]}`) {
  const replicates = Number(process.argv[2] ?? 400);
  const resamples = Number(process.argv[3] ?? 1000);
  console.log(
    `${replicates} replicates, ${resamples} task-clustered resamples each, ` +
      `8 arms, ${TASKS} tasks × ${ATTEMPTS} attempts\n`,
  );
  console.log(
    "| scenario | true rank | interval | each arm covered | all arms covered at once (± MC SE) | mean set size |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [name, theta] of Object.entries(SCENARIOS)) run(name, theta, replicates, resamples);
}
