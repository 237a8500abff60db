import type { StoreFrame } from "../../analysis/schema/store.js";

/** One page of the site: shown in the navigation when the store's design supports it, else why not. */
export interface PageCapability {
  path: string;
  name: string;
  shown: boolean;
  /** What the store lacks for it (shown: false), in one line for the overview. */
  missing?: string;
}

const has = <T>(xs: readonly T[] | undefined) => (xs?.length ?? 0) > 0;

/**
 * Which pages the store's design supports, from the store as read (before any analysis: Framework starts at
 * once and reads its navigation from this). The user's own runs come first: the overview, the leaderboard and
 * the comparison of arms; the paper's RQ pages appear when the store holds what each needs (judgments, human
 * labels, matched conditions none/curated, repeated scoring runs or several judges); the overview lists the
 * others with what is missing instead of a page of "not available" tables.
 */
export function siteCapabilities(store: StoreFrame, o: { ownData?: boolean; order?: boolean } = {}): PageCapability[] {
  const judged = store.labels.judgments > 0;
  const binary = store.trajectories.some((t) => t.outcome === "PASS" || t.outcome === "FAIL");
  const arms = new Set(store.trajectories.map((t) => `${t.harness}\u0000${t.model}\u0000${t.source ?? ""}`)).size;
  const conditions = new Set(store.trajectories.map((t) => t.condition ?? "none"));
  const methods = new Set<string>();
  for (const m of store.method_scores ?? []) methods.add(m.method);
  for (const name of store.method_score_columns?.methods ?? []) methods.add(name);
  let repeated = false;
  const judges = new Set<string>();
  for (const runs of store.labels.runs.values()) {
    if (runs.length > 1) repeated = true;
    for (const r of runs) judges.add(r.judge);
  }
  const human = has(store.human_ratings) || has(store.human_item_labels) || has(store.human_preferences);
  const page = (path: string, name: string, missing: string | false): PageCapability =>
    missing === false ? { path, name, shown: true } : { path, name, shown: false, missing };
  const noJudgments = "the store holds no checklist judgments";
  return [
    page("/", "Overview: your runs", false),
    page("/leaderboard", "Leaderboard", arms < 2 && "one arm only (no ranking)"),
    page("/compare", "Compare arms and methods", false),
    page(
      "/history",
      "History of versions",
      !(o.order || (store.trajectories.length > 0 && store.trajectories.every((t) => t.started_at))) &&
        "no order of versions (gcpc site --order FILE, or each run's started_at)",
    ),
    page("/rq1", "RQ1 Discrimination", !judged ? noJudgments : !binary && "no binary official outcome"),
    page("/rq2", "RQ2 Human agreement", !human && "no human ratings or item labels"),
    page(
      "/rq3",
      "RQ3 Skill effects",
      !judged
        ? noJudgments
        : !(conditions.has("none") && conditions.has("curated")) &&
            "no runs both without (none) and with curated skills",
    ),
    page(
      "/explorer",
      "FAIL→FAIL explorer",
      !judged ? noJudgments : !(conditions.has("none") && conditions.has("curated")) && "no with/without-skill pairs",
    ),
    page("/rq4", "RQ4 Ablations", !judged && noJudgments),
    page(
      "/rq5",
      "RQ5 Reliability and transfer",
      !judged ? noJudgments : !(repeated || judges.size > 1) && "one judge, judged once (no repeated scoring runs)",
    ),
    page("/design", "Design (power)", !judged ? noJudgments : !methods.has("holistic") && "no holistic method score"),
    // The repository's bundled real evaluations, not the user's: in the navigation of the repository's own sites
    // (a store under its data/ folder) only.
    ...(o.ownData ? [page("/real", "Real evaluations", false)] : []),
    page("/checklists", "Checklists", !has(store.items) && "no checklist items"),
    page("/data", "Data", false),
  ];
}
