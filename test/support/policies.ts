// Answer policies for test bots: a deterministic legal player built on the
// engine's legalActionsFromView (what a bot author holding only the view can
// do), and misbehaving wrappers that each break one rule of the protocol.
import { legalActionsFromView, seededRandom } from '../../engine';
import type { AnyAction, DecisionKind, PioneersView } from '../../engine/types';
import { answer, type Behaviour, type DecisionContext } from './test-bot';

interface SeatMemo {
  turn: number;
  offered: boolean;
  devPlayedThisTurn: boolean;
  offersThisTurn: number;
  rng: () => number;
}

const BUILD = new Set(['build_city', 'build_settlement', 'build_road', 'buy_dev']);

/**
 * Picks a legal answer from the view alone: builds when it can (so games end),
 * otherwise mostly ends the turn, sometimes plays something else at random.
 * Tracks per match and seat what the view does not carry (dev played, offers).
 */
export function legalPlayer(
  opts: { openOfferEachTurn?: boolean } = {},
): (view: PioneersView, kind: DecisionKind, matchId: string) => AnyAction {
  const memos = new Map<string, SeatMemo>();
  return (view, kind, matchId) => {
    const key = `${matchId}:${view.seat}`;
    let memo = memos.get(key);
    if (!memo)
      memos.set(
        key,
        (memo = {
          turn: -1,
          devPlayedThisTurn: false,
          offersThisTurn: 0,
          offered: false,
          rng: seededRandom(key, 'test-bot'),
        }),
      );
    if (view.turn !== memo.turn)
      Object.assign(memo, { turn: view.turn, devPlayedThisTurn: false, offersThisTurn: 0, offered: false });
    const legal = legalActionsFromView(view, kind, memo);
    if (legal.length === 0) throw new Error(`no legal ${kind} action in view`);
    let choice: AnyAction;
    if (kind === 'turn') {
      const turns = legal as Array<AnyAction & { type: string }>;
      const builds = turns.filter((a) => BUILD.has(a.type));
      const others = turns.filter((a) => a.type !== 'end_turn' && a.type !== 'offer_trade' && !BUILD.has(a.type));
      const end = turns.find((a) => a.type === 'end_turn');
      const openOffer =
        opts.openOfferEachTurn && !memo.offered
          ? turns.find((a) => a.type === 'offer_trade' && !('to' in a && a.to !== undefined))
          : undefined;
      if (openOffer) {
        choice = openOffer;
        memo.offered = true;
        memo.offersThisTurn++;
      } else if (builds.length) choice = builds[Math.floor(memo.rng() * builds.length)];
      else if (others.length && memo.rng() < 0.3) choice = others[Math.floor(memo.rng() * others.length)];
      else choice = end ?? turns[0];
      if (choice && 'type' in choice && choice.type.startsWith('play_')) memo.devPlayedThisTurn = true;
    } else {
      choice = legal[Math.floor(memo.rng() * legal.length)];
    }
    return choice;
  };
}

/**
 * Answers every decision with a legal action. Options: make one open offer per turn (to cause
 * trade rounds); add unknown fields to the frame and the action (which the arena must tolerate).
 */
export function wellBehaved(opts: { openOfferEachTurn?: boolean; extraFields?: boolean } = {}): Behaviour {
  const play = legalPlayer(opts);
  return (ctx) => {
    const action = play(ctx.request.view, ctx.request.kind, ctx.request.matchId);
    if (!opts.extraFields) return answer(ctx, action);
    ctx.socket.send(JSON.stringify({ id: ctx.request.id, action: { ...action, note: 'thinking' }, trace: { ms: 1 } }));
  };
}

/** Misbehaves on the first `times` decisions (as `bad`), then plays legally. */
function misbehaving(
  times: number,
  bad: (ctx: DecisionContext, play: () => AnyAction) => void | Promise<void>,
): Behaviour {
  const play = legalPlayer();
  return (ctx) => {
    const legal = () => play(ctx.request.view, ctx.request.kind, ctx.request.matchId);
    if (ctx.index < times) return bad(ctx, legal);
    answer(ctx, legal());
  };
}

/** Answers correctly but only after `delayMs` (longer than the deadline: each is late, then ignored). */
export function lateBot(delayMs: number, times = Infinity): Behaviour {
  return misbehaving(times, async (ctx, legal) => {
    const action = legal();
    await new Promise((r) => setTimeout(r, delayMs));
    answer(ctx, action);
  });
}

/** Cycles through three kinds of garbage: not JSON, JSON that is not a DecisionResponse, an unknown id. */
export function garbageBot(times = Infinity): Behaviour {
  return misbehaving(times, (ctx) => {
    const kind = ctx.index % 3;
    if (kind === 0) ctx.socket.send('{"id": this is not json');
    else if (kind === 1) ctx.socket.send(JSON.stringify({ answer: 'end_turn' }));
    else ctx.socket.send(JSON.stringify({ id: ctx.request.id + 1_000_000, action: { type: 'end_turn' } }));
  });
}

/** Sends a ~70 KB answer frame (valid JSON, too big). */
export function oversizeBot(times = Infinity): Behaviour {
  return misbehaving(times, (ctx, legal) => {
    ctx.socket.send(JSON.stringify({ id: ctx.request.id, action: legal(), padding: 'x'.repeat(70_000) }));
  });
}

/**
 * Drops its connection (no Close frame, as a crashed server does) instead of answering, on the first `times` decisions;
 * accepts the reconnects.
 */
export function dropperBot(times = Infinity): Behaviour {
  return misbehaving(times, (ctx) => {
    ctx.socket.terminate();
  });
}

/** Closes its socket cleanly (Close frame 1001) instead of answering, on the first `times` decisions. */
export function closeOnDecisionBot(times = Infinity): Behaviour {
  return misbehaving(times, (ctx) => {
    ctx.socket.close(1001, 'going away');
  });
}

/** Answers legally, then closes its socket cleanly: one connection per decision. */
export function closeAfterAnswerBot(): Behaviour {
  const play = legalPlayer();
  return (ctx) => {
    answer(ctx, play(ctx.request.view, ctx.request.kind, ctx.request.matchId));
    ctx.socket.close(1000, 'done');
  };
}

/**
 * Never answers its first `times` decisions in time: it sends each withheld
 * answer when the next decision arrives (so it reaches the arena while another
 * decision is pending), then answers that one legally. No timers involved.
 */
export function withholdingBot(times: number): Behaviour {
  const play = legalPlayer();
  let held: { id: number; action: AnyAction } | null = null;
  return (ctx) => {
    if (held) {
      ctx.socket.send(JSON.stringify({ id: held.id, action: held.action }));
      held = null;
    }
    const action = play(ctx.request.view, ctx.request.kind, ctx.request.matchId);
    if (ctx.index < times) held = { id: ctx.request.id, action };
    else answer(ctx, action);
  };
}

/**
 * Floods: with every decision it first sends `count` stale frames of ~60 KB
 * (answers to the id it answered last), then answers legally.
 */
export function flooderBot(count: number): Behaviour {
  const play = legalPlayer();
  let lastId: number | null = null;
  return (ctx) => {
    if (lastId !== null) {
      const stale = JSON.stringify({ id: lastId, action: { type: 'end_turn' }, padding: 'x'.repeat(60_000) });
      for (let i = 0; i < count; i++) ctx.socket.send(stale);
    }
    lastId = ctx.request.id;
    answer(ctx, play(ctx.request.view, ctx.request.kind, ctx.request.matchId));
  };
}

/** Answers legally, but only after `fraction` of the frame's deadlineMs: slow, never late while the bank lasts. */
export function stallingBot(fraction: number): Behaviour {
  const play = legalPlayer();
  return async (ctx) => {
    const action = play(ctx.request.view, ctx.request.kind, ctx.request.matchId);
    await new Promise((r) => setTimeout(r, Math.floor(ctx.request.deadlineMs * fraction)));
    answer(ctx, action);
  };
}

/** Answers with well-formed actions the rules refuse. */
export function illegalBot(times = Infinity): Behaviour {
  return misbehaving(times, (ctx) => {
    answer(ctx, illegalAction(ctx.request.kind, ctx.request.view));
  });
}

/** A shape-valid answer that breaks a rule for each kind. */
export function illegalAction(kind: DecisionKind, view: PioneersView): AnyAction {
  switch (kind) {
    case 'setup':
      return { settlement: 0, road: 71 }; // road does not touch the settlement
    case 'turn':
      return { type: 'play_knight', hex: view.board.bandit }; // bandit must move (and no knight held)
    case 'discard':
      return { cards: {} }; // must discard floor(hand/2) > 0
    case 'bandit':
      return { hex: view.board.bandit }; // must move
    case 'trade':
      return { accept: true, talk: 'x'.repeat(241) }; // talk over the schema bound
  }
}
