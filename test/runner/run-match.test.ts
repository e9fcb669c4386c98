// End to end: real WebSocket bots on 127.0.0.1 play whole matches through
// runMatch. Misbehaving bots take the right strikes and resign after three,
// while the match completes and every other seat is unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReplay } from '../../engine/replay';
import { generateKeyPair } from '../../src/keys';
import { verifyHandshake } from '../../src/keys/handshake';
import { addressGate } from '../../src/net/address-policy';
import {
  DecisionRequestSchema,
  MatchRecordSchema,
  STRIKE_REASONS,
  type MatchEvent,
  type StrikeReason,
} from '../../src/protocol';
import { runMatch, type MatchEntrant, type MatchResult, type RunMatchOptions } from '../../src/runner';
import {
  closeAfterAnswerBot,
  closeOnDecisionBot,
  dropperBot,
  flooderBot,
  garbageBot,
  illegalBot,
  lateBot,
  legalPlayer,
  oversizeBot,
  stallingBot,
  wellBehaved,
  withholdingBot,
} from '../support/policies';
import { answer, startTestBot, type Behaviour, type TestBot } from '../support/test-bot';

const { privateKey, publicKey } = generateKeyPair();
// Generous: the machine is shared and a starved event loop must not make a good bot late.
const DEADLINE = 1000;
const opened: TestBot[] = [];

afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

async function bot(behaviour: Behaviour): Promise<TestBot> {
  const b = await startTestBot({ behaviour, verifyKey: publicKey });
  opened.push(b);
  return b;
}

function wsEntrant(id: string, b: TestBot): MatchEntrant {
  return { botId: id, botName: `${id} bot`, source: { type: 'ws', url: b.url } };
}
const builtin = (id: string, name: 'random' | 'greedy' = 'random'): MatchEntrant => ({
  botId: id,
  botName: id,
  source: { type: 'builtin', bot: name },
});

function play(entrants: MatchEntrant[], extra: Partial<RunMatchOptions> = {}): Promise<MatchResult> {
  return runMatch({
    matchId: 'match-1',
    seed: 'seed-1',
    entrants,
    platformKey: privateKey,
    deadlineMs: DEADLINE,
    ...extra,
  });
}

function seatOf(result: MatchResult, botId: string) {
  const s = result.seats.find((x) => x.botId === botId);
  if (!s) throw new Error(`no seat for ${botId}`);
  return s;
}

function zeroStrikes(): Record<StrikeReason, number> {
  return Object.fromEntries(STRIKE_REASONS.map((r) => [r, 0])) as Record<StrikeReason, number>;
}

function expectValidCompletedRecord(result: MatchResult): void {
  const rec = result.match;
  expect(MatchRecordSchema.parse(rec)).toEqual(rec);
  expect(rec.status).toBe('completed');
  expect(result.outcome).not.toBeNull();
  expect(rec.players.map((p) => p.placement)).toEqual(result.outcome!.placements);
  expect(rec.vp).toEqual(result.outcome!.vp);
  rec.replay.forEach((e, i) => expect(e.seq).toBe(i));
  expect(verifyReplay(rec.seed!, rec.seatCount as 3 | 4, rec.replay)).toMatchObject({ ok: true });
}

describe('runMatch with well-behaved WebSocket bots', () => {
  let result: MatchResult;
  let bots: TestBot[];
  const live: MatchEvent[] = [];

  beforeAll(async () => {
    // Bot 3 adds unknown fields to every answer: tolerated, never struck.
    bots = await Promise.all([0, 1, 2, 3].map((i) => bot(wellBehaved({ extraFields: i === 3 }))));
    result = await play(
      bots.map((b, i) => wsEntrant(`b${i}`, b)),
      { onEvent: (e) => live.push(e) },
    );
  });

  it('finishes the game with placements, a verifiable replay and a valid record', () => {
    expectValidCompletedRecord(result);
    expect(result.match.rulesVersion).toMatch(/^pioneers\//);
    expect(result.match.players.every((p) => p.ratingDelta === null)).toBe(true);
    expect(result.match.replay[0].kind).toBe('start');
    expect(result.match.replay.at(-1)!.kind).toBe('end');
  });

  it('no strikes (extra fields in answers included), one socket per seat, every answer timed', () => {
    for (const s of result.seats) {
      expect(s.strikes).toEqual(zeroStrikes());
      expect(s.resigned).toBe(false);
      expect(s.connections).toBe(1);
      expect(s.decisions).toBeGreaterThan(0);
      expect(s.latenciesMs).toHaveLength(s.decisions);
    }
    for (const b of bots) {
      expect(b.connections).toBe(1);
      expect(b.closeCodes).toEqual([1000]);
    }
  });

  it('every handshake is signed by the platform key for this match', () => {
    for (const b of bots) {
      for (const h of b.handshakes) {
        expect(h['x-svc-match']).toBe('match-1');
        expect(verifyHandshake(publicKey, h)).toEqual({ ok: true, matchId: 'match-1' });
      }
    }
  });

  it('frames are exact DecisionRequests with increasing ids and the deadline', () => {
    const ids: number[] = [];
    for (const b of bots) {
      for (const f of b.frames) {
        expect(DecisionRequestSchema.parse(f)).toEqual(f);
        expect(f.deadlineMs).toBe(DEADLINE);
        expect(f.matchId).toBe('match-1');
        ids.push(f.id);
      }
      const own = b.frames.map((f) => f.id);
      expect(own).toEqual([...own].sort((x, y) => x - y));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("records each seat's thinking time in the seat stats and the match record", () => {
    expect(result.match.timeUsedMs).toEqual(result.seats.map((s) => Math.round(s.timeUsedMs)));
    for (const s of result.seats) {
      expect(s.timeUsedMs).toBeGreaterThan(0);
      // Time used is the sum of the answer times (no strikes here).
      expect(s.timeUsedMs).toBeCloseTo(
        s.latenciesMs.reduce((a, b) => a + b, 0),
        6,
      );
    }
  });

  it('streams every replay event live, in order, as recorded', () => {
    expect(live).toEqual(result.match.replay);
  });
});

describe('simultaneous decisions', () => {
  it('an open offer goes to every opponent at once: all trade frames arrive before anyone answers', async () => {
    // Each responder answers only once all three asked seats hold the offer. A runner that
    // asked one seat at a time would leave the first responder waiting past its deadline (a strike).
    const offers = new Map<string, { count: number; all: Promise<void>; arrived: () => void }>();
    const behaviour = (): Behaviour => {
      const play = legalPlayer({ openOfferEachTurn: true });
      return async (ctx) => {
        const { view, kind, matchId } = ctx.request;
        if (kind === 'trade') {
          const key = `${view.turn}:${view.openTrade?.from}`;
          let offer = offers.get(key);
          if (!offer) {
            let arrived!: () => void;
            const all = new Promise<void>((r) => {
              arrived = r;
            });
            offers.set(key, (offer = { count: 0, all, arrived }));
          }
          if (++offer.count === 3) offer.arrived();
          await offer.all;
          answer(ctx, { accept: false });
          return;
        }
        answer(ctx, play(view, kind, matchId));
      };
    };
    const bs = await Promise.all([0, 1, 2, 3].map(() => bot(behaviour())));
    const result = await play(
      bs.map((b, i) => wsEntrant(`t${i}`, b)),
      { seed: 'offers', wallClockMs: 20_000 },
    );
    expect(offers.size).toBeGreaterThan(0);
    expect([...offers.values()].every((o) => o.count === 3)).toBe(true);
    for (const s of result.seats) expect(s.strikes).toEqual(zeroStrikes());
  });
});

describe('misbehaving bots take the right strikes and resign after three', () => {
  const cases: Array<{ name: string; reason: StrikeReason; behaviour: () => Behaviour }> = [
    { name: 'answers late', reason: 'late', behaviour: () => withholdingBot(Infinity) },
    { name: 'sends garbage', reason: 'malformed', behaviour: () => garbageBot() },
    { name: 'sends 70 KB frames', reason: 'oversize', behaviour: () => oversizeBot() },
    { name: 'drops its connection every time', reason: 'dropped', behaviour: () => dropperBot() },
    { name: 'plays illegal moves', reason: 'illegal', behaviour: () => illegalBot() },
  ];

  for (const c of cases) {
    it(`a bot that ${c.name}: ${c.reason} x3, resigned, placed last; the others unaffected`, async () => {
      const bad = await bot(c.behaviour());
      const good = await bot(wellBehaved());
      const result = await play([
        wsEntrant('bad', bad),
        wsEntrant('good', good),
        builtin('r1'),
        builtin('g1', 'greedy'),
      ]);
      expectValidCompletedRecord(result);

      const badSeat = seatOf(result, 'bad');
      expect(badSeat.strikes).toEqual({ ...zeroStrikes(), [c.reason]: 3 });
      expect(badSeat.resigned).toBe(true);
      expect(badSeat.decisions).toBe(3);
      expect(badSeat.strikeLog.map((s) => s.reason)).toEqual([c.reason, c.reason, c.reason]);
      expect(result.outcome!.placements[badSeat.seat]).toBe(4);
      // No decision reaches a resigned seat.
      expect(bad.frames).toHaveLength(3);

      const replay = result.match.replay;
      const timeouts = replay.filter((e) => e.kind === 'timeout' && e.seat === badSeat.seat);
      expect(timeouts.map((e) => e.data)).toEqual(
        [1, 2, 3].map((n) => expect.objectContaining({ reason: c.reason, strikes: n })),
      );
      expect(replay.filter((e) => e.kind === 'resign').map((e) => e.seat)).toEqual([badSeat.seat]);
      expect(replay.filter((e) => e.kind === 'timeout' && e.seat !== badSeat.seat)).toEqual([]);

      for (const id of ['good', 'r1', 'g1']) {
        const s = seatOf(result, id);
        expect(s.strikes).toEqual(zeroStrikes());
        expect(s.resigned).toBe(false);
      }
      expect(good.connections).toBe(1);
    });
  }

  it('illegal strikes carry the engine rejection (or schema) reason in the strike log', async () => {
    const bad = await bot(illegalBot());
    const result = await play([wsEntrant('bad', bad), builtin('r1'), builtin('r2')]);
    const s = seatOf(result, 'bad');
    expect(s.strikeLog).toHaveLength(3);
    for (const entry of s.strikeLog) expect(entry.detail).toMatch(/^[a-z_]+: ./);
    // The public replay says the same: each timeout event names the rejection code.
    const timeouts = result.match.replay.filter((e) => e.kind === 'timeout' && e.seat === s.seat);
    expect(timeouts.map((e) => (e.data as { code?: string }).code)).toEqual(
      s.strikeLog.map((l) => l.detail.split(':')[0]),
    );
    for (const e of timeouts) expect((e.data as { message?: string }).message).toMatch(/^[a-z_]+: ./);
  });

  it('keeps connection details (which can name the bot host) out of the public replay', async () => {
    const flaky = await bot(dropperBot(1));
    const result = await play([wsEntrant('flaky', flaky), builtin('r1'), builtin('r2')]);
    const dropped = result.match.replay.filter(
      (e) => e.kind === 'timeout' && (e.data as { reason: string }).reason === 'dropped',
    );
    expect(dropped.length).toBeGreaterThan(0);
    expect(JSON.stringify(result.match.replay)).not.toContain('127.0.0.1');
  });

  it('a bot that drops once and comes back reconnects and plays on with one strike', async () => {
    const flaky = await bot(dropperBot(1));
    const result = await play([wsEntrant('flaky', flaky), builtin('r1'), builtin('g1', 'greedy')]);
    expectValidCompletedRecord(result);
    const s = seatOf(result, 'flaky');
    expect(s.strikes).toEqual({ ...zeroStrikes(), dropped: 1 });
    expect(s.resigned).toBe(false);
    expect(s.connections).toBe(2);
    expect(flaky.connections).toBe(2);
    expect(flaky.frames.length).toBeGreaterThan(3);
    for (const h of flaky.handshakes) expect(verifyHandshake(publicKey, h).ok).toBe(true);
  });

  it('late answers to timed-out decisions are ignored: exactly one strike per missed decision', async () => {
    const slow = await bot(withholdingBot(2));
    const result = await play([wsEntrant('slow', slow), builtin('r1'), builtin('r2')]);
    expectValidCompletedRecord(result);
    const s = seatOf(result, 'slow');
    expect(s.strikes).toEqual({ ...zeroStrikes(), late: 2 });
    expect(s.resigned).toBe(false);
  });
});

describe('hostile endpoints cannot stall a match', () => {
  it('an upgrade that never completes and a 401: dropped x3 each, match completes', async () => {
    const stall = await startTestBot({ behaviour: () => {}, stallUpgrade: true });
    const refuse = await startTestBot({ behaviour: () => {}, refuseUpgrade: 401 });
    opened.push(stall, refuse);
    const result = await play([wsEntrant('stall', stall), wsEntrant('refuse', refuse), builtin('r1'), builtin('r2')]);
    expectValidCompletedRecord(result);
    for (const id of ['stall', 'refuse']) {
      expect(seatOf(result, id).strikes).toEqual({ ...zeroStrikes(), dropped: 3 });
      expect(seatOf(result, id).resigned).toBe(true);
    }
  });

  it('a gate refusing the URL strikes that seat without connecting', async () => {
    const b = await bot(wellBehaved());
    const result = await play([wsEntrant('b', b), builtin('r1'), builtin('r2')], {
      gate: async () => {
        throw new Error('loopback addresses are not allowed');
      },
    });
    expect(b.handshakes).toHaveLength(0);
    const s = seatOf(result, 'b');
    expect(s.strikes.dropped).toBe(3);
    expect(s.strikeLog[0].detail).toContain('loopback addresses are not allowed');
  });
});

describe('connections, floods and the time bank', () => {
  it('a bot that closes its socket cleanly after every answer takes no strike: each decision reconnects', async () => {
    const closer = await bot(closeAfterAnswerBot());
    const result = await play([wsEntrant('closer', closer), builtin('r1'), builtin('g1', 'greedy')]);
    expectValidCompletedRecord(result);
    const s = seatOf(result, 'closer');
    expect(s.strikes).toEqual(zeroStrikes());
    expect(s.connections).toBeGreaterThan(1);
    expect(closer.connections).toBe(s.connections);
    for (const h of closer.handshakes) expect(verifyHandshake(publicKey, h).ok).toBe(true);
  });

  it('a bot that closes cleanly on every decision gets each one resent once, then `dropped`', async () => {
    const closer = await bot(closeOnDecisionBot());
    const result = await play([wsEntrant('closer', closer), builtin('r1'), builtin('r2')]);
    expectValidCompletedRecord(result);
    const s = seatOf(result, 'closer');
    expect(s.strikes).toEqual({ ...zeroStrikes(), dropped: 3 });
    expect(s.resigned).toBe(true);
    const ids = closer.frames.map((f) => f.id);
    expect(ids).toHaveLength(6);
    expect(ids.filter((_, i) => i % 2 === 0)).toEqual(ids.filter((_, i) => i % 2 === 1));
  });

  it('a bot flooding 60 KB stale frames is struck `malformed` and resigns; an honest bot in the match is untouched', async () => {
    const flooder = await bot(flooderBot(40));
    const honest = await bot(wellBehaved());
    const result = await play([
      wsEntrant('flooder', flooder),
      wsEntrant('honest', honest),
      builtin('r1'),
      builtin('g1', 'greedy'),
    ]);
    expectValidCompletedRecord(result);
    const f = seatOf(result, 'flooder');
    expect(f.strikes).toEqual({ ...zeroStrikes(), malformed: 3 });
    expect(f.resigned).toBe(true);
    expect(f.unrequestedFrames).toBeGreaterThan(16);
    for (const entry of f.strikeLog) expect(entry.detail).toContain('unrequested');
    const h = seatOf(result, 'honest');
    expect(h.strikes).toEqual(zeroStrikes());
    expect(h.unrequestedFrames).toBe(0);
    expect(h.connections).toBe(1);
  });

  it('a stalling bot spends its time bank, then every decision is `late`; the match ends', async () => {
    const staller = await bot(stallingBot(0.5));
    const timeBankMs = 600;
    const deadlineMs = 200;
    const result = await play([wsEntrant('staller', staller), builtin('r1'), builtin('g1', 'greedy')], {
      deadlineMs,
      timeBankMs,
    });
    expectValidCompletedRecord(result);
    const s = seatOf(result, 'staller');
    expect(s.strikes).toEqual({ ...zeroStrikes(), late: 3 });
    expect(s.resigned).toBe(true);
    expect(s.strikeLog.at(-1)!.detail).toContain('time bank empty');
    // The bank ran dry, so the seat used all of it (minus under a millisecond).
    expect(s.timeUsedMs).toBeGreaterThan(timeBankMs - 1);
    expect(result.match.timeUsedMs![s.seat]).toBe(Math.round(s.timeUsedMs));
    // Each frame allows min(deadline, bank left): the full deadline first, then less and less.
    const deadlines = staller.frames.map((fr) => fr.deadlineMs);
    expect(deadlines[0]).toBe(deadlineMs);
    expect(deadlines.every((d) => d >= 1 && d <= deadlineMs)).toBe(true);
    expect(deadlines.some((d) => d < deadlineMs)).toBe(true);
    expect(deadlines.slice(1)).toEqual(deadlines.slice(1).map((_, i) => Math.min(deadlines[i], deadlines[i + 1])));
    // Built-in seats are not timed against the bank.
    for (const id of ['r1', 'g1']) expect(seatOf(result, id).strikes).toEqual(zeroStrikes());
  });

  it('the gate pins the connection to the address it checked: `bot.invalid` reaches the local bot', async () => {
    const b = await bot(wellBehaved());
    const port = new URL(b.url).port;
    const url = `http://bot.invalid:${port}`;
    const gated: string[] = [];
    const result = await play(
      [{ botId: 'b', botName: 'b', source: { type: 'ws', url } }, builtin('r1'), builtin('r2')],
      {
        gate: async (u) => {
          gated.push(u);
          return { address: '127.0.0.1', family: 4 };
        },
      },
    );
    expectValidCompletedRecord(result);
    expect(seatOf(result, 'b').strikes).toEqual(zeroStrikes());
    expect(gated).toEqual([url]);
    expect(b.handshakes.map((h) => h.host)).toEqual([`bot.invalid:${port}`]);
  });

  it('with the address policy as the gate: production refuses a loopback bot unconnected; development pins what it resolved', async () => {
    const b = await bot(wellBehaved());
    const port = new URL(b.url).port;
    const url = `http://bot.invalid:${port}`;
    const entrants = [{ botId: 'b', botName: 'b', source: { type: 'ws' as const, url } }, builtin('r1'), builtin('r2')];
    // The injected resolver stands in for DNS (the name never resolves for real).
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    const refused = await play(entrants, { gate: addressGate({ production: true, resolve }) });
    expect(seatOf(refused, 'b').strikes).toEqual({ ...zeroStrikes(), dropped: 3 });
    expect(b.handshakes).toHaveLength(0);
    const allowed = await play(entrants, { gate: addressGate({ production: false, resolve }) });
    expectValidCompletedRecord(allowed);
    expect(seatOf(allowed, 'b').strikes).toEqual(zeroStrikes());
    expect(b.handshakes.map((h) => h.host)).toEqual([`bot.invalid:${port}`]);
  });

  it('12 matches sharing one abort signal add no listener each (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const ac = new AbortController();
      const matches = Array.from({ length: 12 }, (_, i) =>
        runMatch({
          matchId: `m-${i}`,
          seed: `listeners-${i}`,
          platformKey: privateKey,
          signal: ac.signal,
          entrants: [builtin('a'), builtin('b'), builtin('c')],
        }),
      );
      ac.abort();
      const results = await Promise.all(matches);
      expect(results.map((r) => r.match.status)).toEqual(Array(12).fill('aborted'));
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('stopping a match', () => {
  it('the wall clock aborts: status aborted, no placements, replay ends with an aborted end', async () => {
    const slow = await bot(lateBot(1000));
    const result = await play([wsEntrant('slow', slow), builtin('r1'), builtin('r2')], {
      wallClockMs: 100,
      deadlineMs: 2000,
    });
    expect(result.match.status).toBe('aborted');
    expect(result.outcome).toBeNull();
    expect(result.match.vp).toBeNull();
    expect(result.match.players.every((p) => p.placement === null)).toBe(true);
    expect(result.match.replay.at(-1)).toMatchObject({
      kind: 'end',
      data: expect.objectContaining({ reason: 'aborted' }),
    });
    expect(MatchRecordSchema.parse(result.match)).toEqual(result.match);
    expect(verifyReplay('seed-1', 3, result.match.replay).ok).toBe(true);
  });

  it('an abort signal stops a running match the same way', async () => {
    const b = await bot(wellBehaved());
    const ac = new AbortController();
    let seen = 0;
    const result = await play([wsEntrant('b', b), builtin('r1'), builtin('r2'), builtin('r3')], {
      signal: ac.signal,
      onEvent: () => {
        if (++seen === 30) ac.abort();
      },
    });
    expect(result.match.status).toBe('aborted');
    expect(result.match.players.every((p) => p.placement === null)).toBe(true);
    expect(b.openSockets()).toBe(0);
  });
});

describe('determinism and built-in seats', () => {
  it('same seed and deterministic bots give the same replay (ignoring timestamps)', async () => {
    const run = async () => {
      const bs = await Promise.all([bot(wellBehaved()), bot(wellBehaved())]);
      const r = await play(
        [wsEntrant('a', bs[0]), wsEntrant('b', bs[1]), builtin('r', 'random'), builtin('g', 'greedy')],
        { seed: 'det-7' },
      );
      return r.match.replay.map(({ at: _at, ...rest }) => rest);
    };
    const [one, two] = [await run(), await run()];
    expect(one.length).toBeGreaterThan(10);
    expect(two).toEqual(one);
  });

  it('a built-in-only match is played in-process and completes', async () => {
    const result = await play([builtin('a'), builtin('b', 'greedy'), builtin('c')], { seed: 'builtin-only' });
    expectValidCompletedRecord(result);
    for (const s of result.seats) expect(s.connections).toBe(0);
  });

  it('the seed decides who sits where', async () => {
    const entrants = [builtin('a'), builtin('b'), builtin('c'), builtin('d')];
    const seatsFor = async (seed: string) =>
      (await play(entrants, { seed, wallClockMs: 1 })).match.players.map((p) => p.botId);
    const orders = new Set<string>();
    for (const seed of ['s1', 's2', 's3', 's4', 's5', 's6']) orders.add((await seatsFor(seed)).join(','));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('programmer errors are thrown, not played', async () => {
    await expect(play([builtin('a'), builtin('b')])).rejects.toThrow(/3 or 4/);
    await expect(play([builtin('a'), builtin('b'), builtin('c')], { deadlineMs: 0 })).rejects.toThrow(/deadlineMs/);
  });
});
