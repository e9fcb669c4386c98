// How the user runs arena, so the hints it prints (`arena replay DIR`) can be
// pasted back as they are: `npx arena` under npm/npx (the bin is not on the
// user's PATH then), `arena` when the launcher was found on PATH, otherwise
// `node <path to the launcher>`. The single executable is its own launcher:
// its name when found on PATH, else its path.
import { basename, delimiter, dirname, isAbsolute, relative, resolve } from 'node:path';
import { IN_BINARY } from '../docs/package-files';
import type { CliIO } from './io';

export function arenaCommand(io: Pick<CliIO, 'env' | 'argv' | 'cwd'>, inBinary: boolean = IN_BINARY): string {
  if (inBinary) return executableCommand(io);
  // npm (7+) sets npm_command for `npx`, `npm exec` and `npm run`.
  if (io.env.npm_command || io.env.npm_execpath) return 'npx arena';
  const launcher = io.argv[1];
  if (!launcher) return 'arena';
  const path = resolve(io.cwd, launcher);
  const onPath = (io.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => resolve(io.cwd, dir) === dirname(path));
  if (onPath) return basename(path);
  const rel = relative(io.cwd, path);
  const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  return `node ${shellWord(shown)}`;
}

/** The single executable (argv[0] is its path): its name when PATH finds it there, else its path. */
function executableCommand(io: Pick<CliIO, 'env' | 'argv' | 'cwd'>): string {
  const path = resolve(io.cwd, io.argv[0] ?? 'arena');
  const onPath = (io.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => resolve(io.cwd, dir) === dirname(path));
  if (onPath) return basename(path);
  const rel = relative(io.cwd, path);
  return shellWord(rel && !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel}` : path);
}

/** Quotes a word for a POSIX shell only when it needs it. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
