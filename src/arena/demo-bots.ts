// The demo's line-up: both example bots started in-process on free ports,
// plus the built-in bots. Greedy joins when the engine has it.
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';
import { builtinUnavailable } from './builtins';

export interface DemoBots {
  starter: RunningBot;
  heuristic: RunningBot;
  /** `arena play` arguments for the whole line-up. */
  args: string[];
  close(): Promise<void>;
}

export async function startDemoBots(host = '127.0.0.1'): Promise<DemoBots> {
  const starter = await startStarter({ host, port: 0 });
  let heuristic: RunningBot;
  try {
    heuristic = await startHeuristic({ host, port: 0 });
  } catch (err) {
    await starter.close();
    throw err;
  }
  const args = [`starter=${starter.url}`, `heuristic=${heuristic.url}`, greedyAvailable() ? 'builtin:greedy' : 'builtin:random', 'builtin:random'];
  return {
    starter,
    heuristic,
    args,
    close: async () => {
      await Promise.all([starter.close(), heuristic.close()]);
    },
  };
}

function greedyAvailable(): boolean {
  return builtinUnavailable('greedy') === null;
}
