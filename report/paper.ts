import { z } from "zod";
import reported from "../data/paper/reported.json" with { type: "json" };

/** One figure as printed in the paper; `unit` decides how it is shown (share → percent). */
const PaperFigureSchema = z.strictObject({
  value: z.number(),
  unit: z.enum(["share", "count", "value"]),
  ci: z.tuple([z.number(), z.number()]).optional(),
  section: z.string(),
  meaning: z.string(),
});
const PaperFiguresSchema = z.object({ figures: z.record(z.string(), PaperFigureSchema) });
export type PaperFigure = z.infer<typeof PaperFigureSchema>;
export type PaperFigures = z.infer<typeof PaperFiguresSchema>;

/** The ids of data/paper/reported.json: a typo in a static id fails the type check. */
export type PaperFigureId = keyof typeof reported.figures;

/** An id built from data (a method, a benchmark): the figure's id if the paper printed one. */
export function paperId(id: string): PaperFigureId | undefined {
  return Object.hasOwn(reported.figures, id) ? (id as PaperFigureId) : undefined;
}

/** The bundled demo store reproduces the paper, so its reports show the paper's figures beside ours. */
export function isPaperDemo(store: { name: string; synthetic?: boolean | null }): boolean {
  return store.synthetic === true && store.name.startsWith("gcpc-demo");
}

/** The paper's reported figures (data/paper/reported.json); comparison only, never an input. */
export function loadPaperFigures(): PaperFigures {
  // Validated, so a malformed edit of the data file fails here and not as a blank cell.
  return PaperFiguresSchema.parse(reported);
}
