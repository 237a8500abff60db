import { InputError, StoreValidationError } from "../store/problems.js";
import { fsErrorText } from "../store/fs-error-text.js";

/** Bad usage or bad input the user can fix: one line on stderr, exit 2, never a stack trace. */
export class UsageError extends Error {}

/**
 * The one line to show for an error caused by the user's input or file system, or undefined for a
 * bug (exit 1, with the stack, so it can be reported). File-system errors name their path.
 */
export function userMessage(e: unknown): string | undefined {
  if (e instanceof UsageError || e instanceof StoreValidationError || e instanceof InputError) return e.message;
  const text = fsErrorText(e);
  return text === undefined ? undefined : `${(e as NodeJS.ErrnoException).path ?? "file"}: ${text}`;
}
