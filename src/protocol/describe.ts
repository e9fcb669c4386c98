// One replay event in words, for every reader of a match log: `arena replay`
// and `arena watch` in the terminal, and the dashboard's match page. Pure: it
// returns segments, and each renderer draws them its own way: a seat
// reference as the seat's colour and name, a hex by its number (or, with the
// board at hand, its resource), marked text in its own style. The wording is
// here once, so the terminal and the browser cannot drift apart.
//
// Both forms of an event are described: the full replay of a finished match
// and the public event of a running one (no bought card, no stolen resource,
// no strike code), and the stamped ones (with seq and at).
import type { GameEvent, PublicGameEvent } from './events';

/** A seat, drawn by the renderer (colour, bot name). */
export interface SeatRef {
  seat: number;
}
/** A hex of the board, by id; a renderer that has the board may name its resource and number. */
export interface HexRef {
  hex: number;
}
/**
 * Text with a role the renderer may style: `choice` what a seat answered,
 * `default` the engine answering for it, `talk` a bot's own words (untrusted),
 * `strike` a strike or resignation, `end` the end of the match.
 */
export interface Marked {
  text: string;
  mark: 'choice' | 'default' | 'talk' | 'strike' | 'end';
}
export type Segment = string | SeatRef | HexRef | Marked;

/** Any event a log shows: as the engine emits it or as a spectator sees it, stamped or not. */
export type DescribedEvent = GameEvent | PublicGameEvent;

type Counts = Readonly<Partial<Record<string, number>>>;

/** "1 ore, 2 wool" from resource counts ("+1 ore +2 wool" for gains); "nothing" when empty. */
export function countsText(v: Counts | undefined, gained = false): string {
  const parts = Object.entries(v ?? {})
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([r, n]) => `${gained ? '+' : ''}${n} ${r}`);
  return parts.length ? parts.join(gained ? ' ' : ', ') : 'nothing';
}

/** "code: message", naming the code once: the runner's message may already start with it. */
function strikeWhy(code: string | undefined, message: string | undefined): string {
  if (!code) return message ?? '';
  if (!message || message === code) return code;
  return message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
}

const AWARD = { largestArmy: 'the largest army', longestRoad: 'the longest road' } as const;

/** The event as segments; the text of the string segments joined is the sentence. */
export function describeEvent(ev: DescribedEvent): Segment[] {
  const who: SeatRef = { seat: ev.seat ?? -1 };
  switch (ev.kind) {
    case 'start':
      return [`match starts: ${ev.data.seatCount} seats, rules ${ev.data.rulesVersion}`];
    case 'action':
      return describeAction(who, ev.data);
    case 'roll': {
      const [a, b] = ev.data.dice;
      const out: Segment[] = [who, ` rolled ${a}+${b}=${a + b}`];
      if (a + b === 7) return [...out, ': the bandit moves'];
      let paid = 0;
      ev.data.produced.forEach((p, s) => {
        if (countsText(p) === 'nothing') return;
        out.push(paid++ ? ', ' : ': ', { seat: s }, ` ${countsText(p, true)}`);
      });
      if (!paid) out.push(': nothing produced');
      return out;
    }
    case 'payout':
      return [who, ` receives ${countsText(ev.data.gained)} for the second settlement`];
    case 'discard':
      return [who, ` discarded ${countsText(ev.data.cards)}`];
    case 'bandit': {
      const d = ev.data;
      const out: Segment[] = [who, ' moved the bandit to ', { hex: d.hex }];
      if (!('victim' in d)) return out;
      const victim = { seat: d.victim };
      if ('stole' in d ? d.stole === null : !d.stoleCard) return [...out, ' and robbed ', victim, ', who had no cards'];
      return [...out, 'stole' in d ? ` and stole 1 ${d.stole} from ` : ' and stole a card from ', victim];
    }
    case 'build': {
      const { what, at, free } = ev.data;
      return [
        who,
        ` built a ${what} ${what === 'road' ? `on edge ${at}` : `at vertex ${at}`}${free ? ' (free, roadworks)' : ''}`,
      ];
    }
    case 'dev': {
      const d = ev.data;
      if (d.action === 'buy')
        return [who, 'card' in d ? ` bought a dev card (${d.card.replaceAll('_', ' ')})` : ' bought a dev card'];
      switch (d.card) {
        case 'windfall':
          return [who, ` played windfall: took ${countsText(d.take)}`];
        case 'roadworks':
          return [who, ` played roadworks on edges ${d.edges.join(' and ')}`];
        case 'embargo':
          return [who, ` played embargo on ${d.resource}: took ${d.taken.reduce((x, y) => x + y, 0)}`];
        case 'knight':
          return [who, ' played a knight'];
      }
      return [who, ' played a card'];
    }
    case 'trade': {
      const d = ev.data;
      if ('accepted' in d) return [who, "'s offer found no taker"];
      if (d.to === 'bank') return [who, ` traded ${countsText(d.give)} to the bank for ${countsText(d.get)}`];
      return [who, ` traded ${countsText(d.give)} for ${countsText(d.get)} with `, { seat: d.to }];
    }
    case 'talk':
      return [who, ' says ', { text: `“${ev.data.message}”`, mark: 'talk' }];
    case 'award': {
      const name = AWARD[ev.data.award] ?? String(ev.data.award);
      if (ev.data.seat === null) return [`nobody holds ${name} now`];
      const out: Segment[] = [{ seat: ev.data.seat }, ` takes ${name}`];
      return ev.data.from === null ? out : [...out, ' from ', { seat: ev.data.from }];
    }
    case 'timeout': {
      // The full record says why (the engine's rejection code and message for an illegal answer); the live form does
      // not.
      const d = ev.data;
      const why = strikeWhy('code' in d ? d.code : undefined, 'message' in d ? d.message : undefined);
      return [
        who,
        {
          text: ` strike ${d.strikes}: ${d.reason} on a ${d.decision} decision${why ? ` (${why})` : ''}`,
          mark: 'strike',
        },
      ];
    }
    case 'resign':
      return [
        who,
        { text: ` resigned after ${ev.data.strikes} strikes; the engine plays for it from now on`, mark: 'strike' },
      ];
    case 'end': {
      const d = ev.data;
      if (d.reason === 'aborted') return [{ text: `match aborted after ${d.turns} turns: no placements`, mark: 'end' }];
      const out: Segment[] = [
        { text: `game over (${d.reason === 'win' ? 'win' : 'turn cap'}) after ${d.turns} turns:`, mark: 'end' },
      ];
      const order = d.placements.map((p, s) => ({ p, s })).sort((x, y) => x.p - y.p || x.s - y.s);
      order.forEach(({ p, s }, i) => out.push(`${i ? ',' : ''} #${p} `, { seat: s }, ` ${d.vp[s]} VP`));
      return out;
    }
  }
  // A kind this build does not know (a newer record): still one line.
  const { kind, seat } = ev as { kind: unknown; seat?: unknown };
  return typeof seat === 'number' ? [{ seat: seat as number }, `: ${String(kind)}`] : [String(kind)];
}

type ActionData = Extract<DescribedEvent, { kind: 'action' }>['data'];
type TurnAction = Extract<ActionData, { kind: 'turn' }>['action'];

function describeAction(who: SeatRef, d: ActionData): Segment[] {
  const out: Segment[] = [who, { text: ' → ', mark: 'choice' }];
  switch (d.kind) {
    case 'setup':
      out.push({
        text: `place a settlement at vertex ${d.action.settlement} and a road on edge ${d.action.road}`,
        mark: 'choice',
      });
      break;
    case 'discard':
      out.push({ text: `discard ${countsText(d.action.cards)}`, mark: 'choice' });
      break;
    case 'bandit':
      out.push({ text: 'move the bandit to ', mark: 'choice' }, { hex: d.action.hex });
      if (d.action.victim !== undefined) out.push({ text: ' and rob ', mark: 'choice' }, { seat: d.action.victim });
      break;
    case 'trade':
      out.push({ text: d.action.accept ? 'accept the offer' : 'decline the offer', mark: 'choice' });
      break;
    case 'turn':
      out.push(...turnAction(d.action));
      break;
  }
  if (d.default) out.push({ text: ' (default)', mark: 'default' });
  const talk = 'talk' in d.action ? d.action.talk : undefined;
  if (talk !== undefined) out.push(' ', { text: `“${talk}”`, mark: 'talk' });
  return out;
}

function turnAction(a: TurnAction): Segment[] {
  const c = (text: string): Marked => ({ text, mark: 'choice' });
  switch (a.type) {
    case 'build_road':
      return [c(`build a road on edge ${a.edge}`)];
    case 'build_settlement':
      return [c(`build a settlement at vertex ${a.vertex}`)];
    case 'build_city':
      return [c(`build a city at vertex ${a.vertex}`)];
    case 'buy_dev':
      return [c('buy a dev card')];
    case 'play_knight':
      return a.victim === undefined
        ? [c('play a knight: bandit to '), { hex: a.hex }]
        : [c('play a knight: bandit to '), { hex: a.hex }, c(', rob '), { seat: a.victim }];
    case 'play_roadworks':
      return [c(`play roadworks on edges ${a.edges.join(' and ')}`)];
    case 'play_windfall':
      return [c(`play windfall for ${countsText(a.take)}`)];
    case 'play_embargo':
      return [c(`play embargo on ${a.resource}`)];
    case 'bank_trade':
      return [c(`trade ${a.give} to the bank for ${a.get}`)];
    case 'offer_trade':
      return a.to === undefined
        ? [c(`offer ${countsText(a.give)} for ${countsText(a.get)} to everyone`)]
        : [c(`offer ${countsText(a.give)} for ${countsText(a.get)} to `), { seat: a.to }];
    case 'end_turn':
      return [c('end the turn')];
  }
  return [c(String((a as { type?: unknown }).type ?? 'act'))];
}

/** The sentence as plain text, seats as "seat N" and hexes as "hex N" (logs, tests, screen readers' fallbacks). */
export function describedText(segments: readonly Segment[]): string {
  return segments
    .map((s) => (typeof s === 'string' ? s : 'seat' in s ? `seat ${s.seat}` : 'hex' in s ? `hex ${s.hex}` : s.text))
    .join('');
}
