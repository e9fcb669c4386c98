// What the file system's error codes mean, in words, for messages that name a
// file and say why it could not be read or written.

const TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'no such file or directory (a part of the path is not a directory)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ELOOP: 'too many levels of symbolic links (a symlink loop?)',
  ENAMETOOLONG: 'the path is too long',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EFBIG: 'the file is larger than this process may write (ulimit -f)',
};

/** The words for an error's code (`err` as thrown by node:fs), or undefined for a code without any. */
export function errnoText(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === undefined ? undefined : TEXT[code];
}

/**
 * Why a file operation failed, for a message: the words and the code ("no space left on the device (ENOSPC)"), else the
 * error's own message.
 */
export function errnoReason(err: unknown): string {
  const words = errnoText(err);
  if (words) return `${words} (${(err as NodeJS.ErrnoException).code})`;
  return err instanceof Error ? err.message : String(err);
}
