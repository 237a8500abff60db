import { StoreValidationError } from "./store/problems.js";

/** Bad usage or bad input the user can fix: one line on stderr, exit 2, never a stack trace. */
export class UsageError extends Error {}

const FS_MESSAGES: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a folder, not a file",
  ENOTDIR: "not a folder",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EEXIST: "already exists",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
};

/** The plain words for a file-system error code (ENOENT → "no such file or directory"), if it is one. */
export function fsErrorText(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === "string" ? FS_MESSAGES[code] : undefined;
}

/**
 * The one line to show for an error caused by the user's input or file system, or undefined for a
 * bug (exit 1, with the stack, so it can be reported). File-system errors name their path.
 */
export function userMessage(e: unknown): string | undefined {
  if (e instanceof UsageError || e instanceof StoreValidationError) return e.message;
  const text = fsErrorText(e);
  return text === undefined ? undefined : `${(e as NodeJS.ErrnoException).path ?? "file"}: ${text}`;
}
