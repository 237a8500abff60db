import { labellingDesign } from "../analysis/rq/arms/labelling-design.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { labellingDesignMarkdown } from "../report/judge-corrected-render.js";
import { parseSelector } from "./arms-command.js";
import { loadValidStore, type Progress } from "./commands.js";
import { UsageError } from "./errors.js";
import { choiceOption, intOption, type Parsed } from "./options.js";
import type { Io } from "./terminal.js";

/** `gcpc power STORE --judge-corrected --arm SEL [--labelled 5,10,20,40] [--simulations N]`: the labelling design. */
export async function labellingDesignCommand({ values, positionals }: Parsed, io: Io, progress: Progress) {
  const arm = parseSelector("arm", values.arm);
  if (Object.keys(arm).length === 0) throw new UsageError("power --judge-corrected needs --arm FIELD=VALUE[,...]");
  const sizes = String(values.labelled ?? "5,10,20,40")
    .split(",")
    .map((s) => Number(s.trim()));
  if (sizes.some((x) => !Number.isInteger(x) || x < 2))
    throw new UsageError(`--labelled must be a comma-separated list of integers >= 2, got "${values.labelled}"`);
  const format = choiceOption("format", values.format, ["md", "json"] as const, "md");
  const simulations = intOption("simulations", values.simulations, 100, 10);
  const settings = {
    ...DEFAULT_SETTINGS,
    seed: intOption("seed", values.seed, DEFAULT_SETTINGS.seed),
    resamples: 1000,
  };
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  progress(`${simulations} designs per size, ${settings.resamples} resamples each`);
  const r = labellingDesign(prepareStore(store), { arm, sizes, simulations, settings });
  if ("available" in r) throw new UsageError(`power --judge-corrected not available: ${r.reason}`);
  io.out(
    format === "json"
      ? `${JSON.stringify({ store: store.manifest.name, ...r }, null, 2)}\n`
      : labellingDesignMarkdown(r, store.manifest.name),
  );
  return 0;
}
