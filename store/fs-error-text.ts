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
