// The starter bot: plays legal games with the simplest sensible strategy.
// Run it:   node --import tsx examples/starter-bot/bot.ts --port 8080
// Then:     arena play http://127.0.0.1:8080 builtin:random builtin:random
//
// How it works: the engine's legal-move generator runs on the view the arena
// sends (`legalActionsFromView`), so every answer is legal; the strategy only
// chooses among them. Replace `decide` with your own.
import { pathToFileURL } from 'node:url';
import { legalActionsFromView } from '../../engine/index';
import type { AnyAction, TurnAction, PioneersView } from '../../engine/types';
import type { DecisionRequest } from '../../src/protocol/index';
import { parseBotCli, serveBot, type BotServerOptions, type MatchMemo, type RunningBot } from './server';

/** Picks one legal answer for the decision in `request`. */
export function decide(request: DecisionRequest, memo: MatchMemo): AnyAction {
  // The protocol's view type and the engine's describe the same JSON.
  const view = request.view as PioneersView;
  const legal = legalActionsFromView(view, request.kind, memo);
  if (legal.length === 0) throw new Error(`no legal ${request.kind} answer in this view`);
  switch (request.kind) {
    case 'turn':
      return chooseTurn(legal as TurnAction[]);
    case 'trade':
      return { accept: false }; // never help an opponent
    default:
      // setup, discard, bandit: any legal answer will do for a starter.
      return pick(legal);
  }
}

/** Build the most valuable thing we can afford; otherwise end the turn. */
function chooseTurn(legal: TurnAction[]): TurnAction {
  for (const type of ['build_city', 'build_settlement', 'build_road'] as const) {
    const options = legal.filter((a) => a.type === type);
    if (options.length) return pick(options);
  }
  return { type: 'end_turn' };
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

export function startBot(opts: BotServerOptions = {}): Promise<RunningBot> {
  return serveBot(decide, { name: 'starter', ...opts });
}

// `node --import tsx examples/starter-bot/bot.ts`: run as a program.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cli = parseBotCli(process.argv.slice(2));
  const bot = await startBot({ ...cli, log: cli.quiet ? undefined : (line) => process.stderr.write(`starter: ${line}\n`) });
  process.stderr.write(`starter bot listening on ${bot.url}${cli.platformPublicKey ? ' (verifying handshakes)' : ''}\n`);
  process.stderr.write(`try: node bin/arena play ${bot.url} builtin:random builtin:random --games 5\n`);
  process.on('SIGINT', () => void bot.close().then(() => process.exit(0)));
}
