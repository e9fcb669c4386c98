// A stronger example: simple, explainable heuristics on top of the engine's
// legal-move generator. Run it:
//   node --import tsx examples/heuristic-bot/bot.ts --port 8081
//
// Strategy, in priority order:
//   setup    the vertex with the most pips, plus resource diversity and ports
//   turn     city > settlement > a bank trade that completes one of those >
//            over 7 cards, a bank trade toward the next build > a knight
//            (largest army; the bandit onto the leader) > embargo what we lack >
//            roadworks or a road toward the best free spot > windfall >
//            development card > end turn
//   discard  keep what the next city or settlement needs
//   bandit   the hex that hurts the leading opponent most, never our own
//   trade    accept only when it gives us what we lack for our next build
import { pathToFileURL } from 'node:url';
import {
  legalActionsFromView,
  RESOURCES,
  VERTEX_HEXES,
  VERTEX_VERTICES,
  EDGE_VERTICES,
  VERTEX_PORT,
  slots,
} from 'bot-arena/engine';
import type {
  AnyAction,
  BanditAction,
  DiscardAction,
  PioneersView,
  ResourceCounts,
  ResourceName,
  SetupAction,
  TurnAction,
} from 'bot-arena/engine';
import type { DecisionRequest } from 'bot-arena/protocol';
import { parseBotCli, serveBot, type BotServerOptions, type MatchMemo, type RunningBot } from '../starter-bot/server';

/** Dots under a number token: how often it rolls out of 36. */
const PIPS: Record<number, number> = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };

const COST: Record<'city' | 'settlement' | 'road' | 'dev', ResourceCounts> = {
  city: { ore: 3, grain: 2 },
  settlement: { brick: 1, lumber: 1, wool: 1, grain: 1 },
  road: { brick: 1, lumber: 1 },
  dev: { ore: 1, wool: 1, grain: 1 },
};

export function decide(request: DecisionRequest, memo: MatchMemo): AnyAction {
  const view = request.view as PioneersView;
  const legal = legalActionsFromView(view, request.kind, memo);
  if (legal.length === 0) throw new Error(`no legal ${request.kind} answer in this view`);
  switch (request.kind) {
    case 'setup':
      return chooseSetup(view, legal as SetupAction[]);
    case 'turn':
      return chooseTurn(view, legal as TurnAction[]);
    case 'discard':
      return chooseDiscard(view, legal as DiscardAction[]);
    case 'bandit':
      return chooseBandit(view, legal as BanditAction[]);
    case 'trade':
      return { accept: acceptTrade(view) };
  }
}

// ---- board knowledge -------------------------------------------------------

function hexPips(view: PioneersView, hex: number): number {
  const h = view.board.hexes[hex];
  return h.token === null ? 0 : (PIPS[h.token] ?? 0);
}

/** How good a vertex is to settle: pips, with a bonus for resources we lack and for a port. */
function vertexValue(view: PioneersView, v: number, owned: ReadonlySet<ResourceName> = new Set()): number {
  let value = 0;
  const kinds = new Set<string>();
  for (const h of slots(VERTEX_HEXES, v, 3)) {
    const hex = view.board.hexes[h];
    if (hex.resource === 'desert') continue;
    const p = hexPips(view, h) * (h === view.board.bandit ? 0.5 : 1);
    value += p;
    if (!kinds.has(hex.resource) && !owned.has(hex.resource)) value += 1.5;
    kinds.add(hex.resource);
    // Ore and grain build cities, the best VP per card later on.
    if (hex.resource === 'ore' || hex.resource === 'grain') value += p * 0.15;
  }
  if (VERTEX_PORT[v] !== -1) value += 1;
  return value;
}

function ownResources(view: PioneersView): Set<ResourceName> {
  const out = new Set<ResourceName>();
  for (const t of view.towns) {
    if (t.seat !== view.seat) continue;
    for (const h of slots(VERTEX_HEXES, t.vertex, 3)) {
      const r = view.board.hexes[h].resource;
      if (r !== 'desert') out.add(r);
    }
  }
  return out;
}

/** Vertices where the distance rule allows a town right now. */
function freeVertices(view: PioneersView): Set<number> {
  const taken = new Set(view.towns.map((t) => t.vertex));
  const free = new Set<number>();
  for (let v = 0; v < 54; v++) {
    if (taken.has(v)) continue;
    if (slots(VERTEX_VERTICES, v, 3).some((n) => taken.has(n))) continue;
    free.add(v);
  }
  return free;
}

// ---- decisions -------------------------------------------------------------

function chooseSetup(view: PioneersView, legal: SetupAction[]): SetupAction {
  const owned = ownResources(view);
  const free = freeVertices(view);
  return best(legal, (a) => {
    // The road should point at a good free vertex for a later settlement.
    const far = otherEnd(a.road, a.settlement);
    const ahead = Math.max(
      0,
      ...slots(VERTEX_VERTICES, far, 3)
        .filter((n) => n !== a.settlement && free.has(n))
        .map((n) => vertexValue(view, n)),
    );
    return vertexValue(view, a.settlement, owned) * 10 + ahead;
  });
}

function chooseTurn(view: PioneersView, legal: TurnAction[]): TurnAction {
  const of = <T extends TurnAction['type']>(type: T) =>
    legal.filter((a): a is Extract<TurnAction, { type: T }> => a.type === type);
  const owned = ownResources(view);

  const cities = of('build_city');
  if (cities.length) return best(cities, (a) => vertexValue(view, a.vertex));
  const settlements = of('build_settlement');
  if (settlements.length) return best(settlements, (a) => vertexValue(view, a.vertex, owned));

  // A bank trade that completes a city or settlement this turn.
  const settleSpots = reachableSpots(view);
  for (const goal of settleSpots.length ? (['city', 'settlement'] as const) : (['city'] as const)) {
    if (goal === 'city' && !view.towns.some((t) => t.seat === view.seat && !t.city)) continue;
    const trade = tradeToward(view, of('bank_trade'), COST[goal]);
    if (trade) return trade;
  }

  // Over 7 cards a rolled 7 costs half the hand: swap a surplus with the bank
  // for what the next build lacks most, keeping what that build needs.
  const need = mostNeeded(view);
  const total = RESOURCES.reduce((n, r) => n + (view.hand[r] ?? 0), 0);
  if (total > 7 && need) {
    const goal = nextGoal(view);
    const swaps = of('bank_trade').filter(
      (t) => t.get === need && (view.hand[t.give] ?? 0) - rateFor(view, t.give) >= (goal[t.give] ?? 0),
    );
    if (swaps.length) return best(swaps, (t) => (view.hand[t.give] ?? 0) - (goal[t.give] ?? 0));
  }

  // A knight whenever we hold one: each counts toward largest army (2 VP),
  // and it moves the bandit onto the leader's best hex (off ours).
  const knights = of('play_knight');
  if (knights.length) return best(knights, (a) => banditValue(view, a.hex, a.victim));

  // Embargo the resource our next build lacks most.
  const embargo = of('play_embargo').find((a) => a.resource === need);
  if (embargo) return embargo;

  if (settleSpots.length < 2) {
    const free = freeVertices(view);
    const roadworks = of('play_roadworks')
      .map((a) => ({ a, s: a.edges.reduce((n, e) => n + roadValue(view, e, free), 0) }))
      .filter((x) => x.s > 0);
    if (roadworks.length) return roadworks.sort((x, y) => y.s - x.s)[0].a;
    const roads = of('build_road')
      .map((a) => ({ a, s: roadValue(view, a.edge, free) }))
      .filter((x) => x.s > 0);
    if (roads.length) return roads.sort((x, y) => y.s - x.s)[0].a;
  }
  const windfall = of('play_windfall');
  if (windfall.length) return best(windfall, (a) => usefulness(view, a.take));
  if (of('buy_dev').length) return { type: 'buy_dev' };
  return { type: 'end_turn' };
}

/** Our free, settleable vertices at the end of our own roads. */
function reachableSpots(view: PioneersView): number[] {
  const free = freeVertices(view);
  const ends = new Set<number>();
  for (const r of view.roads) {
    if (r.seat !== view.seat) continue;
    ends.add(EDGE_VERTICES[r.edge * 2]);
    ends.add(EDGE_VERTICES[r.edge * 2 + 1]);
  }
  return [...ends].filter((v) => free.has(v));
}

function roadValue(view: PioneersView, edge: number, free: ReadonlySet<number>): number {
  const a = EDGE_VERTICES[edge * 2];
  const b = EDGE_VERTICES[edge * 2 + 1];
  let value = 0;
  for (const v of [a, b]) {
    if (free.has(v)) value = Math.max(value, vertexValue(view, v));
    for (const n of slots(VERTEX_VERTICES, v, 3)) if (free.has(n)) value = Math.max(value, vertexValue(view, n) * 0.6);
  }
  return value;
}

/** A bank trade whose result makes `cost` affordable, giving away what we have most spare of. */
function tradeToward(
  view: PioneersView,
  trades: Extract<TurnAction, { type: 'bank_trade' }>[],
  cost: ResourceCounts,
): TurnAction | null {
  const missing = RESOURCES.filter((r) => (view.hand[r] ?? 0) < (cost[r] ?? 0));
  if (missing.length !== 1) return null;
  const want = missing[0];
  if ((cost[want] ?? 0) - (view.hand[want] ?? 0) !== 1) return null;
  const options = trades.filter(
    (t) => t.get === want && (view.hand[t.give] ?? 0) - rateFor(view, t.give) >= (cost[t.give] ?? 0),
  );
  return options.length ? best(options, (t) => (view.hand[t.give] ?? 0) - (cost[t.give] ?? 0)) : null;
}

function rateFor(view: PioneersView, r: ResourceName): number {
  let rate = 4;
  for (const t of view.towns) {
    if (t.seat !== view.seat) continue;
    const code = VERTEX_PORT[t.vertex];
    if (code === RESOURCES.indexOf(r)) rate = 2;
    else if (code === 5) rate = Math.min(rate, 3);
  }
  return rate;
}

/** Pips the bandit would block from opponents (weighted by their score), minus our own loss. */
function banditValue(view: PioneersView, hex: number, victim: number | undefined): number {
  let value = 0;
  const pips = hexPips(view, hex);
  for (const t of view.towns) {
    if (!slots(VERTEX_HEXES, t.vertex, 3).includes(hex)) continue;
    const weight = (t.city ? 2 : 1) * pips;
    value += t.seat === view.seat ? -3 * weight : weight * (1 + view.scores[t.seat] / 5);
  }
  if (victim !== undefined) value += 0.5 * Math.min(view.handCounts[victim], 6) + 0.1;
  return value;
}

function chooseBandit(view: PioneersView, legal: BanditAction[]): BanditAction {
  return best(legal, (a) => banditValue(view, a.hex, a.victim));
}

/** Keep the cards the next build needs; throw away the rest first. */
function chooseDiscard(view: PioneersView, legal: DiscardAction[]): DiscardAction {
  const goal = view.towns.some((t) => t.seat === view.seat && !t.city) ? COST.city : COST.settlement;
  return best(legal, (a) => {
    let loss = 0;
    for (const r of RESOURCES) {
      const keep = (view.hand[r] ?? 0) - (a.cards[r] ?? 0);
      loss += Math.max(0, (goal[r] ?? 0) - keep) * 3 + (a.cards[r] ?? 0) * 0.1;
    }
    return -loss;
  });
}

/** The next build: a city while we have a settlement to upgrade, else a settlement. */
function nextGoal(view: PioneersView): ResourceCounts {
  return view.towns.some((t) => t.seat === view.seat && !t.city) ? COST.city : COST.settlement;
}

/** The resource the next build lacks most, if any. */
function mostNeeded(view: PioneersView): ResourceName | null {
  const goal = nextGoal(view);
  let need: ResourceName | null = null;
  let gap = 0;
  for (const r of RESOURCES) {
    const short = (goal[r] ?? 0) - (view.hand[r] ?? 0);
    if (short > gap) {
      gap = short;
      need = r;
    }
  }
  return need;
}

/** How much a set of cards brings us closer to a city or settlement. */
function usefulness(view: PioneersView, take: ResourceCounts): number {
  let value = 0;
  for (const goal of [COST.city, COST.settlement]) {
    for (const r of RESOURCES) {
      const short = Math.max(0, (goal[r] ?? 0) - (view.hand[r] ?? 0));
      value += Math.min(short, take[r] ?? 0);
    }
  }
  return value;
}

/** Accept an offer that fills a gap for our next build and only costs spare cards. */
function acceptTrade(view: PioneersView): boolean {
  const offer = view.openTrade;
  if (!offer || offer.from === view.seat) return false;
  // The offerer gives `give` and wants `get`: we receive `give`, pay `get`.
  const goal = view.towns.some((t) => t.seat === view.seat && !t.city) ? COST.city : COST.settlement;
  let gain = 0;
  let pain = 0;
  for (const r of RESOURCES) {
    const have = view.hand[r] ?? 0;
    const need = goal[r] ?? 0;
    gain += Math.min(Math.max(0, need - have), offer.give[r] ?? 0);
    const pay = offer.get[r] ?? 0;
    if (pay > have) return false;
    pain += Math.max(0, need - (have - pay)) - Math.max(0, need - have);
  }
  // Never feed the leader.
  if (view.scores[offer.from] >= 8) return false;
  return gain > pain;
}

// ---- helpers ---------------------------------------------------------------

function otherEnd(edge: number, v: number): number {
  const a = EDGE_VERTICES[edge * 2];
  return a === v ? EDGE_VERTICES[edge * 2 + 1] : a;
}

function best<T>(items: readonly T[], score: (item: T) => number): T {
  let top = items[0];
  let topScore = -Infinity;
  for (const item of items) {
    const s = score(item);
    if (s > topScore) {
      top = item;
      topScore = s;
    }
  }
  return top;
}

export function startBot(opts: BotServerOptions = {}): Promise<RunningBot> {
  return serveBot(decide, { name: 'heuristic', ...opts });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cli = parseBotCli(process.argv.slice(2), { ...process.env, PORT: process.env.PORT ?? '8081' });
  const bot = await startBot({
    ...cli,
    log: cli.quiet ? undefined : (line) => process.stderr.write(`heuristic: ${line}\n`),
  });
  process.stderr.write(
    `heuristic bot listening on ${bot.url}${cli.platformPublicKey ? ` (verifying handshakes addressed to ${bot.publicUrl})` : ''}\n`,
  );
  process.stderr.write(`try: node bin/arena play ${bot.url} builtin:greedy builtin:greedy builtin:greedy --games 20\n`);
  process.on('SIGINT', () => void bot.close().then(() => process.exit(0)));
}
