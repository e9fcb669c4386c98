// Everything `arena play` checks before the first game, so that a problem
// stops the run before anything starts: the deploy check of every URL bot and
// a writable --out directory. Built-in bots need no check: the names come
// from the engine's own list.
import type { KeyObject } from 'node:crypto';
import { sourceLabel, type ArenaBot } from '../arena/bots';
import { ensureWritableDir } from '../arena/files';
import { deployCheckAll } from '../probe/deploy-check';

export interface PreflightInput {
  bots: readonly ArenaBot[];
  outDir?: string;
}

/** Problems that must stop the run, each one line naming the bot or path and what failed; empty means go. */
export async function preflight(input: PreflightInput, platformKey: KeyObject, timeoutMs?: number): Promise<string[]> {
  const problems: string[] = [];
  const urlBots = input.bots.filter((b) => b.source.type === 'ws');
  if (urlBots.length) {
    const results = await deployCheckAll(
      urlBots.map((b) => sourceLabel(b.source)),
      { platformKey, timeoutMs },
    );
    results.forEach((r, i) => {
      if (!r.ok) problems.push(`${urlBots[i].name}: deploy check failed: ${r.failure.message}`);
    });
  }
  if (input.outDir !== undefined && problems.length === 0) {
    try {
      await ensureWritableDir(input.outDir);
    } catch (err) {
      problems.push(`cannot write to --out ${input.outDir}: ${(err as Error).message}`);
    }
  }
  return problems;
}
