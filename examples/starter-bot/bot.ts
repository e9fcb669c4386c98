// The starter bot: plays legal games with the simplest sensible strategy.
// Run it:   npm start -- --port 8080
//           (in the arena's repository: node --import tsx examples/starter-bot/bot.ts --port 8080)
// Then:     npx arena play http://127.0.0.1:8080 builtin:random builtin:random
//
// How it works: the engine's legal-move generator runs on the view the arena
// sends (`legalActionsFromView`), so every answer is legal; the strategy only
// chooses among them. Replace `decide` with your own.
import { pathToFileURL } from 'node:url';
import {
  legalActionsFromView,
  slots,
  VERTEX_HEXES,
  type AnyAction,
  type PioneersView,
  type ResourceName,
  type SetupAction,
  type TurnAction,
} from 'bot-arena/engine';
import type { DecisionRequest } from 'bot-arena/protocol';
import { parseBotCli, serveBot, type BotServerOptions, type MatchMemo, type RunningBot } from './server';

/** Picks one legal answer for the decision in `request`. */
export function decide(request: DecisionRequest, memo: MatchMemo): AnyAction {
  // The protocol's view type and the engine's describe the same JSON.
  const view = request.view as PioneersView;
  const legal = legalActionsFromView(view, request.kind, memo);
  if (legal.length === 0) throw new Error(`no legal ${request.kind} answer in this view`);
  switch (request.kind) {
    case 'setup':
      // Settle where the dice pay most often.
      return best(legal as SetupAction[], (a) => pips(view, a.settlement));
    case 'turn':
      return chooseTurn(view, legal as TurnAction[]);
    case 'trade':
      return { accept: false }; // never help an opponent
    default:
      // discard, bandit: any legal answer will do for a starter.
      return pick(legal);
  }
}

/** Dots under a number token: how many of the 36 dice rolls pay it. */
const DOTS: Record<number, number> = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

/** How often a town at `vertex` gets paid: the dots of the hexes around it. */
function pips(view: PioneersView, vertex: number): number {
  return slots(VERTEX_HEXES, vertex, 3).reduce((n, hex) => n + (DOTS[view.board.hexes[hex].token ?? 0] ?? 0), 0);
}

/**
 * Build the most valuable thing we can afford (a city, a settlement on the
 * best spot, a development card, a road); otherwise swap a surplus with the
 * bank for what we hold least of; otherwise end the turn.
 */
function chooseTurn(view: PioneersView, legal: TurnAction[]): TurnAction {
  const of = <T extends TurnAction['type']>(type: T) =>
    legal.filter((a): a is Extract<TurnAction, { type: T }> => a.type === type);
  const cities = of('build_city');
  if (cities.length) return best(cities, (a) => pips(view, a.vertex));
  const settlements = of('build_settlement');
  if (settlements.length) return best(settlements, (a) => pips(view, a.vertex));
  if (of('buy_dev').length) return { type: 'buy_dev' };
  const knights = of('play_knight');
  if (knights.length) return pick(knights);
  const roads = of('build_road');
  if (roads.length) return pick(roads);
  const trades = of('bank_trade');
  if (trades.length) return best(trades, (a) => have(view, a.give) - have(view, a.get));
  return { type: 'end_turn' };
}

function have(view: PioneersView, r: ResourceName): number {
  return view.hand[r] ?? 0;
}

function best<T>(items: readonly T[], score: (item: T) => number): T {
  return items.reduce((a, b) => (score(b) > score(a) ? b : a));
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

export function startBot(opts: BotServerOptions = {}): Promise<RunningBot> {
  return serveBot(decide, { name: 'starter', ...opts });
}

// `npm start` (tsx bot.ts): run as a program.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cli = parseBotCli(process.argv.slice(2));
  const bot = await startBot({
    ...cli,
    log: cli.quiet ? undefined : (line) => process.stderr.write(`starter: ${line}\n`),
  });
  process.stderr.write(
    `starter bot listening on ${bot.url}${cli.platformPublicKey ? ` (verifying handshakes addressed to ${bot.publicUrl})` : ''}\n`,
  );
  process.stderr.write(`try: npx arena play ${bot.url} builtin:random builtin:random --games 5\n`);
  process.on('SIGINT', () => void bot.close().then(() => process.exit(0)));
}
