// What `arena watch` knows of a match it follows live, as a pure reducer of
// the stream's messages (src/protocol/live.ts): the header, the latest public
// view, a window of recent public events with the turn each happened in,
// strikes per seat, and how the match ended. Only public information ever
// arrives here, so only public information can be drawn.
import type { PublicView } from '../../../engine/index';
import type { PublicMatchEvent } from '../../protocol/events';
import type { LiveEnd, LiveMatchHeaderData, LiveMessage } from '../../protocol/live';
import type { LiveConnection } from '../../protocol/live';

/** Events kept for the log; older ones scroll away. */
export const LOG_KEEP = 400;

export interface LogEntry {
  ev: PublicMatchEvent;
  /** 0 during setup, then n from the roll that starts turn n (as the replay viewer counts). */
  turn: number;
}

export interface LiveState {
  matchId: string;
  match: LiveMatchHeaderData | null;
  /** Bot name per seat. */
  names: string[];
  view: PublicView | null;
  /** The seq of the last event the view accounts for. */
  viewSeq: number;
  /** The seq of the last event received. */
  lastSeq: number;
  turn: number;
  log: LogEntry[];
  strikes: number[];
  /** Events the stream never delivered (a gap; should not happen, shown if it does). */
  missed: number;
  ended: LiveEnd | null;
  /**
   * True VP per seat from the game's `end` event, hidden VP cards included;
   * null until the game is over. The public view's scores leave those cards
   * out, so at the end they would understate the winner.
   */
  finalVp: number[] | null;
  connection: LiveConnection;
  /** Events received but not shown yet: a paced viewer (LiveSession eventsPerSecond) is this far behind live. */
  behind: number;
}

export function initialLiveState(matchId: string): LiveState {
  return {
    matchId,
    match: null,
    names: [],
    view: null,
    viewSeq: -1,
    lastSeq: -1,
    turn: 0,
    log: [],
    strikes: [],
    missed: 0,
    ended: null,
    finalVp: null,
    connection: { state: 'connecting', attempt: 1 },
    behind: 0,
  };
}

function namesOf(match: LiveMatchHeaderData): string[] {
  const names: string[] = [];
  for (const p of match.players) names[p.seat] = p.botName;
  for (let s = 0; s < match.players.length; s++) names[s] ??= `seat ${s}`;
  return names;
}

function keep(log: LogEntry[]): LogEntry[] {
  return log.length > LOG_KEEP ? log.slice(log.length - LOG_KEEP) : log;
}

export function applyLiveMessage(s: LiveState, msg: LiveMessage): LiveState {
  switch (msg.type) {
    case 'snapshot': {
      const { match, seq, view, recent } = msg.data;
      const seats = match.players.length;
      const turn = view?.turn ?? s.turn;
      // Turns of the recent window, counted back from the view's turn.
      let t = turn;
      const fresh: LogEntry[] = new Array(recent.length);
      for (let i = recent.length - 1; i >= 0; i--) {
        fresh[i] = { ev: recent[i], turn: t };
        if (recent[i].kind === 'roll') t = Math.max(0, t - 1);
      }
      // A snapshot after a reconnect: keep what we had, add only what is new,
      // and count what fell between (events older than the window on a first
      // connection are history, not a gap).
      const again = s.match?.id === match.id;
      const known = again ? s.log : [];
      const added = again ? fresh.filter((e) => e.ev.seq > s.lastSeq) : fresh;
      const missed = again ? s.missed + Math.max(0, (added[0]?.ev.seq ?? seq + 1) - s.lastSeq - 1) : 0;
      let strikes = msg.data.strikes
        ? [...msg.data.strikes]
        : s.strikes.length === seats
          ? [...s.strikes]
          : new Array<number>(seats).fill(0);
      if (!msg.data.strikes) for (const e of added) strikes = withStrike(strikes, e.ev);
      return {
        ...s,
        match,
        names: namesOf(match),
        view: view ?? s.view,
        viewSeq: view ? seq : s.viewSeq,
        lastSeq: Math.max(s.lastSeq, seq),
        turn,
        log: keep([...known, ...added]),
        strikes,
        missed,
        finalVp: added.reduce((vp, e) => trueVp(e.ev) ?? vp, s.finalVp),
      };
    }
    case 'event': {
      const ev = msg.data;
      if (ev.seq <= s.lastSeq) return s; // a repeat: never counted twice
      const turn = ev.kind === 'roll' ? s.turn + 1 : s.turn;
      const gap = s.lastSeq >= 0 ? ev.seq - s.lastSeq - 1 : 0;
      return {
        ...s,
        lastSeq: ev.seq,
        turn,
        log: keep([...s.log, { ev, turn }]),
        strikes: withStrike(s.strikes, ev),
        missed: s.missed + gap,
        finalVp: trueVp(ev) ?? s.finalVp,
      };
    }
    case 'view': {
      if (msg.data.seq < s.viewSeq) return s;
      return { ...s, view: msg.data.view, viewSeq: msg.data.seq, turn: msg.data.view.turn };
    }
    case 'end': {
      const match = s.match ? { ...s.match, status: msg.data.status, players: msg.data.players } : s.match;
      return { ...s, match, ended: msg.data };
    }
  }
}

export function applyConnection(s: LiveState, c: LiveConnection): LiveState {
  return { ...s, connection: c };
}

/** The true VP an `end` event reports (a game that was won or hit the cap); null for any other event. */
function trueVp(ev: PublicMatchEvent): number[] | null {
  return ev.kind === 'end' && 'vp' in ev.data ? [...ev.data.vp] : null;
}

function withStrike(strikes: number[], ev: PublicMatchEvent): number[] {
  if (ev.kind !== 'timeout') return strikes;
  const next = [...strikes];
  next[ev.seat] = Math.max(next[ev.seat] ?? 0, ev.data.strikes);
  return next;
}
