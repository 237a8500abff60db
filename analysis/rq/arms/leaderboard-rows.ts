// The leaderboard's rows: each arm's value, interval, ranks and caveat.
import { degenerateMark, FEW_CLUSTERS } from "../../estimates/bootstrap-interval.js";
import type { LeaderboardRow } from "./leaderboard-types.js";
import { ratio, runFigure, type Arm } from "./leaderboard-arms.js";
import type { rankIntervals } from "./leaderboard-ranks.js";

/**
 * Each arm's row: its value, interval, runs figure, ranks and caveat (in the arms' order). `attempted` (pass^k and
 * pass@k): per arm, the tasks it ran at all and k, since its scored tasks are only those with k attempts or more.
 */
export function armRows(
  arms: Arm[],
  ranks: ReturnType<typeof rankIntervals>,
  attempted?: { ran: number; k: number }[],
): LeaderboardRow[] {
  const rows = arms.map((a, i): LeaderboardRow => {
    const tasks = a.count.reduce((n, c) => n + (c > 0 ? 1 : 0), 0);
    return {
      arm: a.arm,
      fields: a.fields,
      trajectories: a.trajectories,
      tasks,
      value: ratio(a, null),
      ci: ranks.valueCi[i],
      ...degenerateMark(ranks.bootstrap, `value:${i}`),
      few_clusters: tasks < FEW_CLUSTERS,
      runs: runFigure(a),
      rank: ranks.estimate[i],
      rank_ci: ranks.rankCi[i],
      rank_ci_joint: ranks.joint?.sets[i] ?? null,
      caveat: null,
    };
  });
  // The board's tasks are every task any arm ran (issue 45.5: "71 of the board's 76" named the widest arm's
  // count where the board held 223); an arm whose tasks no other arm ran is compared with nothing.
  const board = arms[0]?.count.length ?? 0;
  const shared = sharesTask(arms);
  rows.forEach((r, i) => {
    r.caveat = rowCaveat(r.tasks, board, arms.length > 1 && !shared[i], attempted?.[i]);
  });
  return rows;
}

/** Per arm: whether another arm ran at least one of its tasks. */
export function sharesTask(arms: Arm[]): boolean[] {
  const runners = new Int32Array(arms[0]?.count.length ?? 0);
  for (const a of arms) a.count.forEach((c, t) => void (c > 0 && runners[t]++));
  return arms.map((a) => a.count.some((c, t) => c > 0 && runners[t] > 1));
}

export function rowCaveat(
  tasks: number,
  board: number,
  alone: boolean,
  attempted?: { ran: number; k: number },
): string | null {
  const out: string[] = [];
  const ran = attempted?.ran ?? tasks;
  if (tasks < FEW_CLUSTERS) out.push(`few tasks (${tasks}): its interval and ranks are unreliable`);
  if (alone) out.push("shares no task with another arm: its rank compares different tasks, not the same ones");
  else if (ran < board) out.push(`ran ${ran} of the board's ${board} tasks: ranked on its own tasks, not common ones`);
  if (attempted && tasks < ran)
    out.push(
      `${ran - tasks} of the ${ran} tasks it ran have fewer than ${attempted.k} attempts: ` +
        `its value is over the other ${tasks}`,
    );
  return out.length ? out.join("; ") : null;
}
