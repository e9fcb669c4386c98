// Which built-in bots this engine build can actually field. Checked before a
// tournament starts, so a missing bot is a clear message, not a failed match.
import { createBuiltinBot } from '../../engine/index';
import type { ArenaBot, BuiltinName } from './bots';

/** Null when the built-in can play; otherwise why not. */
export function builtinUnavailable(name: BuiltinName): string | null {
  try {
    createBuiltinBot(name, 'availability-check');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** One message per unavailable built-in among the bots, e.g. "builtin:greedy: not built yet". */
export function unavailableBuiltins(bots: readonly ArenaBot[]): string[] {
  const names = new Set(bots.flatMap((b) => (b.source.type === 'builtin' ? [b.source.bot] : [])));
  return [...names].flatMap((n) => {
    const why = builtinUnavailable(n);
    return why === null ? [] : [`builtin:${n} cannot play: ${why}`];
  });
}
