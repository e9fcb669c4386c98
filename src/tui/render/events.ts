// One replay event as a human sentence: "seat 2 rolled 3+5=8: seat 0 +1 grain".
// Events reach the viewer parsed by the record schema and verified against
// the engine, so each kind's data has its exact type (engine/types.ts).
import type { ActionEventData, DevEventData, GameEvent, ResourceCounts, TurnAction } from '../../../engine/index';
import { seatColour } from './palette';
import { span, type Line, type Span } from './style';

export interface DescribeOptions {
  /** Bot name per seat. */
  names: readonly string[];
  /** Short labels ("s2") for narrow screens. */
  short?: boolean;
}

/** "1 ore, 2 wool" from resource counts; "nothing" when empty. */
export function countsText(v: ResourceCounts | undefined, gained = false): string {
  const parts = Object.entries(v ?? {}).filter(([, n]) => typeof n === 'number' && n > 0).map(([r, n]) => `${gained ? '+' : ''}${n} ${r}`);
  return parts.length ? parts.join(gained ? ' ' : ', ') : 'nothing';
}

/** "code: message", naming the code once: the runner's message may already start with it. */
function strikeWhy(code: string | undefined, message: string | undefined): string {
  if (!code) return message ?? '';
  if (!message || message === code) return code;
  return message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
}

export function describeEvent(ev: GameEvent, opts: DescribeOptions): Line {
  const seatRef = (s: number | undefined | null, withName = false): Span => {
    if (s === undefined || s === null) return span('nobody');
    const label = opts.short ? `s${s}` : withName && opts.names[s] ? `seat ${s} (${opts.names[s]})` : `seat ${s}`;
    return span(label, { color: seatColour(s), bold: true });
  };
  const actor = seatRef(ev.seat, true);
  const t = (text: string): Span => span(text);

  switch (ev.kind) {
    case 'start':
      return [t(`match starts: ${ev.data.seatCount} seats, rules ${ev.data.rulesVersion}`)];
    case 'action':
      return describeAction(actor, ev.data);
    case 'roll': {
      const [a, b] = ev.data.dice;
      const gains: Line = [];
      ev.data.produced.forEach((p, s) => {
        if (countsText(p) === 'nothing') return;
        gains.push(t(gains.length ? ', ' : ': '), seatRef(s), t(` ${countsText(p, true)}`));
      });
      if (a + b === 7) gains.push(t(': bandit!'));
      else if (!gains.length) gains.push(t(': nothing paid'));
      return [actor, t(` rolled ${a}+${b}=${a + b}`), ...gains];
    }
    case 'payout':
      return [actor, t(` receives ${countsText(ev.data.gained)}`)];
    case 'discard':
      return [actor, t(` discarded ${countsText(ev.data.cards)}`)];
    case 'bandit': {
      const d = ev.data;
      const out: Line = [actor, t(` moved the bandit to hex ${d.hex}`)];
      if ('victim' in d) out.push(t(d.stole ? ` and stole 1 ${d.stole} from ` : ' and robbed (nothing to take) '), seatRef(d.victim));
      return out;
    }
    case 'build': {
      const { what, at, free } = ev.data;
      return [actor, t(` built a ${what} ${what === 'road' ? `on edge ${at}` : `at ${at}`}${free ? ' (free)' : ''}`)];
    }
    case 'dev':
      return describeDev(actor, ev.data, t);
    case 'trade': {
      const d = ev.data;
      if ('accepted' in d) return [actor, t(`'s offer found no taker`)];
      if (d.to === 'bank') return [actor, t(` traded ${countsText(d.give)} to the bank for ${countsText(d.get)}`)];
      return [actor, t(` traded ${countsText(d.give)} for ${countsText(d.get)} with `), seatRef(d.to)];
    }
    case 'talk':
      return [actor, t(' says '), span(`“${ev.data.message}”`, { color: 'yellow' })];
    case 'award': {
      const name = ev.data.award === 'largestArmy' ? 'largest army' : 'longest road';
      return ev.data.seat === null ? [t(`nobody holds ${name} now`)] : [seatRef(ev.data.seat, true), t(` takes ${name}`)];
    }
    case 'timeout': {
      // The runner may say why (the engine's rejection code and message for an illegal answer).
      const d = ev.data;
      const why = strikeWhy(d.code, d.message);
      return [actor, span(` strike ${d.strikes}: ${d.reason} on a ${d.decision} decision${why ? ` (${why})` : ''}`, { color: 'red' })];
    }
    case 'resign':
      return [actor, span(` resigned after ${ev.data.strikes} strikes; defaults play on`, { color: 'red', bold: true })];
    case 'end': {
      const d = ev.data;
      if (d.reason === 'aborted') return [span(`match aborted after ${d.turns} turns: no placements`, { bold: true })];
      const out: Line = [span(`game over (${d.reason === 'win' ? 'win' : 'turn cap'}) after ${d.turns} turns:`, { bold: true })];
      const order = d.placements.map((p, s) => ({ p, s })).sort((a, b) => a.p - b.p || a.s - b.s);
      for (const { p, s } of order) out.push(t(` #${p} `), seatRef(s), t(` ${d.vp[s]}vp`));
      return out;
    }
  }
}

function describeAction(actor: Span, d: ActionEventData): Line {
  const talk = 'talk' in d.action && d.action.talk !== undefined ? span(` “${d.action.talk}”`, { color: 'yellow' }) : span('');
  const dflt = d.default ? span(' (default)', { color: 'red' }) : span('');
  const arrow = (text: string): Line => [actor, span(` → ${text}`, { dim: true }), dflt, talk];
  switch (d.kind) {
    case 'setup':
      return arrow(`place settlement ${d.action.settlement}, road ${d.action.road}`);
    case 'discard':
      return arrow(`discard ${countsText(d.action.cards)}`);
    case 'bandit':
      return arrow(`bandit to hex ${d.action.hex}${d.action.victim !== undefined ? `, rob seat ${d.action.victim}` : ''}`);
    case 'trade':
      return arrow(d.action.accept ? 'accept the offer' : 'decline the offer');
    case 'turn':
      return arrow(turnActionText(d.action));
  }
}

function turnActionText(a: TurnAction): string {
  switch (a.type) {
    case 'build_road': return `road on edge ${a.edge}`;
    case 'build_settlement': return `settlement at ${a.vertex}`;
    case 'build_city': return `city at ${a.vertex}`;
    case 'buy_dev': return 'buy a dev card';
    case 'play_knight': return `knight: bandit to hex ${a.hex}${a.victim !== undefined ? `, rob seat ${a.victim}` : ''}`;
    case 'play_roadworks': return `roadworks on ${a.edges.join(', ')}`;
    case 'play_windfall': return `windfall: take ${countsText(a.take)}`;
    case 'play_embargo': return `embargo on ${a.resource}`;
    case 'bank_trade': return `bank trade ${a.give} for ${a.get}`;
    case 'offer_trade': return `offer ${countsText(a.give)} for ${countsText(a.get)} ${a.to !== undefined ? `to seat ${a.to}` : 'to everyone'}`;
    case 'end_turn': return 'end turn';
  }
}

function describeDev(actor: Span, d: DevEventData, t: (s: string) => Span): Line {
  if (d.action === 'buy') return [actor, t(` bought a dev card (${d.card})`)];
  switch (d.card) {
    case 'windfall': return [actor, t(` played windfall: took ${countsText(d.take)}`)];
    case 'roadworks': return [actor, t(` played roadworks on ${d.edges.join(', ')}`)];
    case 'embargo': return [actor, t(` played embargo on ${d.resource}: took ${d.taken.reduce((a, b) => a + b, 0)}`)];
    case 'knight': return [actor, t(' played knight')];
  }
}
