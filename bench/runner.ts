// The runner's cost: (1) whole matches over loopback WebSockets vs the same
// match played in-process with the same policy, and (2) the arena's time per
// decision vs a bare WebSocket request/answer round trip of the same frame
// size, measured in the same run (interleaved, best of several rounds, since
// the machine is shared), with where the time goes. The verdict is the median
// of every round's own ratio, pooled over several runs of rounds (--runs N).
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import {
  isOver,
  newGame,
  pendingDecisions,
  seatView,
  submit,
  type AnyAction,
  type DecisionKind,
  type PioneersView,
} from '../engine';
import { generateKeyPair } from '../src/keys';
import { parseAction, type DecisionRequest } from '../src/protocol';
import { runMatch, type MatchEntrant } from '../src/runner';
import { classifyFrame } from '../src/runner/answer-frame';
import { sendText } from '../src/runner/client-frame';
import { openBotSocket } from '../src/runner/connect';
import { SeatFrameWriter } from '../src/runner/seat-frame';
import { legalPlayer } from '../test/support/policies';
import { median, threadTimes, threadTimesSince, watchGc, type BenchSuite, type ThreadTimes } from './harness';

const MIN_MS = Number(process.env.BENCH_MS ?? 3000);
const SEEDS = 8;
const SEED_PREFIX = 'bench-runner/';
/** What follows the id in a request frame, up to the match id's first character. */
const MATCH_ID_KEY = ',"matchId":"';
const ROUNDS = 5;
/**
 * Runs of ROUNDS interleaved rounds each, pooled for the verdict (`npm run bench -- runner --runs N`, or BENCH_RUNS).
 */
const DEFAULT_RUNS = 3;
/**
 * A fixed busy wait every bot and echo server does per frame before answering (BENCH_BOT_SPIN_US, default 0):
 * it lengthens the round trip without touching the runner, to see whether the runner's own cost per decision
 * stays constant in microseconds as the round trip grows (bench/README.md, runner).
 */
const BOT_SPIN_US = Number(process.env.BENCH_BOT_SPIN_US ?? 0);
type Policy = (view: PioneersView, kind: DecisionKind, matchId: string) => AnyAction;
type Timing = { frameMs: number; viewMs: number; jsonMs: number; parseMs: number; submitMs: number };
type Rate = { games: number; decisions: number; ms: number };

async function listen(onMessage: (ws: WebSocket, data: Buffer) => void) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const handler =
    BOT_SPIN_US > 0
      ? (ws: WebSocket, data: Buffer) => {
          spin(BOT_SPIN_US);
          onMessage(ws, data);
        }
      : onMessage;
  wss.on('connection', (ws) => ws.on('message', (data: Buffer) => handler(ws, data)));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => wss.close(() => r())),
  };
}

function spin(us: number): void {
  const until = performance.now() + us / 1000;
  while (performance.now() < until);
}

/**
 * A bot answering with `policy`; records the time it spends per frame: parse + policy + encoding
 * the answer, but not the send, which the echo server of the baseline pays as well (so it stays
 * in the runner's figure, as the socket's).
 */
async function startPolicyBot(policy: Policy) {
  const stats = { botMs: 0, frames: 0, bytes: 0 };
  const server = await listen((ws, data) => {
    const t0 = performance.now();
    const req = JSON.parse(data.toString()) as DecisionRequest;
    const answer = JSON.stringify({ id: req.id, action: policy(req.view, req.kind, req.matchId) });
    stats.botMs += performance.now() - t0;
    ws.send(answer);
    stats.frames++;
    stats.bytes += data.length;
  });
  return { ...server, stats };
}

/**
 * A bot with (almost) no cost of its own: it answers with whole answer frames recorded in-process
 * for the same seed, indexed by seed number and request id (the runner numbers decisions 1, 2, ...
 * in the same order), reading only the two numbers off the frame. Like the echo server, it sends a
 * ready string: no parsing, no number formatting, no concatenation.
 */
function startReplayBot(answers: string[][]) {
  return listen((ws, data) => {
    // The frame starts {"id":<digits>,"matchId":"bench-runner/<seed>" (the runner's key order).
    let id = 0;
    let i = 6;
    for (let c = data[i]; c >= 48 && c <= 57; c = data[++i]) id = id * 10 + c - 48;
    i += MATCH_ID_KEY.length + SEED_PREFIX.length;
    let seed = 0;
    for (let c = data[i]; c >= 48 && c <= 57; c = data[++i]) seed = seed * 10 + c - 48;
    ws.send(answers[seed][id - 1]);
  });
}

/**
 * The same match with no runner and no sockets: engine + the runner's framing (from the game state)
 * + view and policy (the bot's side), in one loop. When timing, the plain way (seatView, then
 * JSON.stringify and UTF-8) runs as well, for comparison rows.
 */
function playInProcess(seed: string, policy: Policy, timing?: Timing, record?: string[]): number {
  const g = newGame(seed, 4);
  const frames = new SeatFrameWriter();
  let decisions = 0;
  while (!isOver(g)) {
    const pending = [...pendingDecisions(g)];
    const answers = pending.map((d) => {
      const id = ++decisions;
      const t0 = performance.now();
      frames.encode(id, seed, d.seat, d.kind, 5000, g);
      const t1 = performance.now();
      const view = seatView(g, d.seat);
      const t2 = performance.now();
      if (timing)
        Buffer.from(
          JSON.stringify({ id, matchId: seed, game: 'pioneers', seat: d.seat, kind: d.kind, deadlineMs: 5000, view }),
        );
      const t3 = performance.now();
      const answerText = JSON.stringify({ id, action: policy(view, d.kind, seed) });
      const t4 = performance.now();
      const verdict = classifyFrame(answerText, false, id, () => false);
      const parsed = verdict.type === 'answer' ? parseAction(d.kind, verdict.action) : null;
      const t5 = performance.now();
      if (timing) {
        timing.frameMs += t1 - t0;
        timing.viewMs += t2 - t1;
        timing.jsonMs += t3 - t2;
        timing.parseMs += t5 - t4;
      }
      record?.push(answerText);
      if (!parsed?.ok) throw new Error('policy answered badly in-process');
      return parsed.action;
    });
    pending.forEach((d, i) => {
      const t0 = performance.now();
      const r = submit(g, d.seat, answers[i]);
      if (timing) timing.submitMs += performance.now() - t0;
      if (!r.ok) throw new Error(`in-process policy move refused: ${r.reason.code}`);
    });
  }
  return decisions;
}

/**
 * Bare WebSocket round trips for `ms`: the client sends a text frame of `size` bytes (a Buffer, as
 * the runner sends), the server answers a small fixed frame, the client sends the next one straight
 * from its 'message' handler. No promise or timer per round trip: the cheapest loop ws allows, so
 * the runner is measured against the socket alone. Same ws options as the runner (no compression).
 */
async function echoRoundTrips(
  size: number,
  ms: number,
  framing: 'ws' | 'runner' = 'ws',
): Promise<{ us: number; trips: number; threads: ThreadTimes | null }> {
  const reply = JSON.stringify({ id: 1, action: { type: 'end_turn' } });
  const server = await listen((ws) => ws.send(reply));
  let client: WebSocket;
  if (framing === 'ws') {
    client = new WebSocket(server.url, { perMessageDeflate: false });
    await new Promise((r) => client.once('open', r));
  } else {
    // The runner's own socket path: sendText frames and masks the request itself (src/runner/client-frame.ts).
    const opened = await openBotSocket({
      url: server.url,
      matchId: 'echo',
      platformKey: generateKeyPair().privateKey,
      maxPayload: 1 << 20,
      handshakeTimeoutMs: 5000,
    });
    if (!opened.ok) throw new Error(`echo: ${opened.failure.message}`);
    client = opened.socket;
  }
  const frame = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, size - 10)) }));
  const send = framing === 'ws' ? () => client.send(frame, { binary: false }) : () => sendText(client, frame);
  let n = 0;
  const threads0 = threadTimes();
  const start = performance.now();
  let end = start;
  await new Promise<void>((resolve) => {
    client.on('message', () => {
      n++;
      if ((n & 63) === 0 && (end = performance.now()) - start >= ms) resolve();
      else send();
    });
    send();
  });
  const us = ((end - start) * 1000) / n;
  const threads = threadTimesSince(threads0, threadTimes());
  client.close();
  await server.close();
  return { us, trips: n, threads };
}

/**
 * Plays ws matches among `urls` for `ms`; per decision: total, and steady state (first to last
 * answer, no connect/close). `botMs`, if given, reads the bots' own time so far: the steady
 * figure then leaves out what the bots spent between the first and the last answer.
 */
async function wsMatches(
  urls: string[],
  ms: number,
  platformKey: Parameters<typeof runMatch>[0]['platformKey'],
  matchIdFor?: (seed: string, n: number) => string,
  botMs?: () => number,
) {
  const rate: Rate = { games: 0, decisions: 0, ms: 0 };
  let steadyMs = 0,
    steadyDecisions = 0,
    strikes = 0;
  const threads0 = threadTimes();
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const seed = `${SEED_PREFIX}${rate.games % SEEDS}`;
    const entrants: MatchEntrant[] = urls.map((url, i) => ({
      botId: `w${i}`,
      botName: `w${i}`,
      source: { type: 'ws', url },
    }));
    let first = 0,
      last = 0,
      actions = 0,
      botFirst = 0,
      botLast = 0;
    const r = await runMatch({
      matchId: matchIdFor ? matchIdFor(seed, rate.games) : `${seed}#${rate.games}`,
      seed,
      entrants,
      platformKey,
      onEvent: (e) => {
        if (e.kind !== 'action') return;
        last = performance.now();
        if (botMs) botLast = botMs();
        if (!actions++) {
          first = last;
          botFirst = botLast;
        }
      },
    });
    steadyMs += last - first - (botLast - botFirst);
    steadyDecisions += actions - 1;
    rate.decisions += r.seats.reduce((n, s) => n + s.decisions, 0);
    strikes += r.seats.reduce((n, s) => n + s.strikeLog.length, 0);
    rate.games++;
  }
  rate.ms = performance.now() - t0;
  // Thread times over whole matches (connect and close included, like totalUs).
  const threads = threadTimesSince(threads0, threadTimes());
  return {
    rate,
    totalUs: (rate.ms * 1000) / rate.decisions,
    steadyUs: (steadyMs * 1000) / steadyDecisions,
    threads,
    strikes,
  };
}

const perSec = (x: Rate) => ({ games: x.games, 'decisions/s': Math.round((x.decisions * 1000) / x.ms) });

export async function run(opts: { runs?: number } = {}): Promise<BenchSuite[]> {
  const runs = opts.runs ?? Number(process.env.BENCH_RUNS ?? DEFAULT_RUNS);
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError(`bench runner: runs must be a positive integer, got ${runs}`);
  const { privateKey } = generateKeyPair();
  const gcWatch = watchGc();

  // Warm-up: JIT the engine, the runner and ws before anything is timed.
  const warm = await Promise.all([0, 1, 2, 3].map(() => startPolicyBot(legalPlayer())));
  // With a timing record, so the plain way (timed rows only) is warm too.
  const warmTiming: Timing = { frameMs: 0, viewMs: 0, jsonMs: 0, parseMs: 0, submitMs: 0 };
  for (let i = 0; i < SEEDS; i++) playInProcess(`${SEED_PREFIX}${i}`, legalPlayer(), warmTiming);
  await wsMatches(
    warm.map((b) => b.url),
    Math.min(MIN_MS, 1500),
    privateKey,
  );
  await Promise.all(warm.map((b) => b.close()));
  await echoRoundTrips(2000, 300);

  // (1) Whole matches: in-process vs WebSocket bots, same seeds, same policy.
  const inProc: Rate = { games: 0, decisions: 0, ms: 0 };
  let t0 = performance.now();
  while (performance.now() - t0 < MIN_MS)
    inProc.decisions += playInProcess(`${SEED_PREFIX}${inProc.games++ % SEEDS}`, legalPlayer());
  inProc.ms = performance.now() - t0;

  const builtin: Rate = { games: 0, decisions: 0, ms: 0 };
  t0 = performance.now();
  while (performance.now() - t0 < MIN_MS) {
    const entrants: MatchEntrant[] = [0, 1, 2, 3].map((i) => ({
      botId: `r${i}`,
      botName: `r${i}`,
      source: { type: 'builtin', bot: 'random' },
    }));
    const r = await runMatch({
      matchId: `b${builtin.games}`,
      seed: `${SEED_PREFIX}${builtin.games++ % SEEDS}`,
      entrants,
      platformKey: privateKey,
    });
    builtin.decisions += r.seats.reduce((n, s) => n + s.decisions, 0);
  }
  builtin.ms = performance.now() - t0;

  const policyBots = await Promise.all([0, 1, 2, 3].map(() => startPolicyBot(legalPlayer())));
  const ws = await wsMatches(
    policyBots.map((b) => b.url),
    MIN_MS,
    privateKey,
  );
  const botMs = policyBots.reduce((n, b) => n + b.stats.botMs, 0);
  const frames = policyBots.reduce((n, b) => n + b.stats.frames, 0);
  const avgFrame = Math.round(policyBots.reduce((n, b) => n + b.stats.bytes, 0) / frames);
  await Promise.all(policyBots.map((b) => b.close()));

  // (2) Per decision: near-free bots vs bare echo, interleaved rounds (echo, runner, echo, runner, ...), `runs` runs of
  // ROUNDS each; best of each row, and the verdict: the median of every round's own ratio, pooled over the runs.
  const recorded = Array.from({ length: SEEDS }, (_, i) => {
    const rec: string[] = [];
    playInProcess(`${SEED_PREFIX}${i}`, legalPlayer(), undefined, rec);
    return rec;
  });
  let echoUs = Infinity,
    ownFramingEchoUs = Infinity,
    totalUs = Infinity,
    steadyUs = Infinity,
    policySteadyUs = Infinity,
    replayGames = 0;
  // Each round's own ratios (runner rows against the echo of the same round): their median does not hang on one lucky
  // or unlucky echo round.
  const roundRatios = { nearFree: [] as number[], policy: [] as number[] };
  // Per run: the median of its rounds' ratios (the spread of the verdict), and its echo and runner medians in us.
  const perRun: Array<{ nearFree: number; policy: number; echoUs: number; nearFreeUs: number; policyUs: number }> = [];
  // GC pauses on this thread (runner, bots and ws alike), per round trip and per decision of the near-free rounds.
  const gc = { echoMs: 0, trips: 0, runnerMs: 0, decisions: 0, policyMs: 0, policyDecisions: 0 };
  const rounds = {
    echoUs: [] as number[],
    nearFreeUs: [] as number[],
    policyUs: [] as number[],
    echoGcUs: [] as number[],
    nearFreeTotalUs: [] as number[],
    nearFreeGcUs: [] as number[],
    // Per trip / per decision, in us: the main thread's CPU, its time runnable but not running, the other threads' CPU.
    echoMainCpuUs: [] as number[],
    echoMainWaitUs: [] as number[],
    echoOtherCpuUs: [] as number[],
    nearFreeMainCpuUs: [] as number[],
    nearFreeMainWaitUs: [] as number[],
    nearFreeOtherCpuUs: [] as number[],
  };
  const perEach = (t: ThreadTimes | null, n: number, into: number[][]) => {
    if (!t) return;
    into[0].push(t.mainCpuNs / 1000 / n);
    into[1].push(t.mainWaitNs / 1000 / n);
    into[2].push(t.otherCpuNs / 1000 / n);
  };
  for (let runNo = 0; runNo < runs; runNo++) {
    // Fresh bots each run.
    const replayBots = await Promise.all([0, 1, 2, 3].map(() => startReplayBot(recorded)));
    const steadyBots = await Promise.all([0, 1, 2, 3].map(() => startPolicyBot(legalPlayer())));
    const steadyBotMs = () => steadyBots.reduce((n, b) => n + b.stats.botMs, 0);
    const thisRun = {
      nearFree: [] as number[],
      policy: [] as number[],
      echoUs: [] as number[],
      nearFreeUs: [] as number[],
      policyUs: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round++) {
      let gc0 = await gcWatch.totalMs();
      const echo = await echoRoundTrips(avgFrame, MIN_MS / ROUNDS);
      echoUs = Math.min(echoUs, echo.us);
      const echoGcMs = (await gcWatch.totalMs()) - gc0;
      gc.echoMs += echoGcMs;
      gc.trips += echo.trips;
      perEach(echo.threads, echo.trips, [rounds.echoMainCpuUs, rounds.echoMainWaitUs, rounds.echoOtherCpuUs]);
      rounds.echoGcUs.push((echoGcMs * 1000) / echo.trips);
      ownFramingEchoUs = Math.min(ownFramingEchoUs, (await echoRoundTrips(avgFrame, MIN_MS / ROUNDS, 'runner')).us);
      gc0 = await gcWatch.totalMs();
      const r = await wsMatches(
        replayBots.map((b) => b.url),
        MIN_MS / ROUNDS,
        privateKey,
        (seed) => seed,
      );
      const runnerGcMs = (await gcWatch.totalMs()) - gc0;
      gc.runnerMs += runnerGcMs;
      gc.decisions += r.rate.decisions;
      rounds.nearFreeTotalUs.push(r.totalUs);
      perEach(r.threads, r.rate.decisions, [
        rounds.nearFreeMainCpuUs,
        rounds.nearFreeMainWaitUs,
        rounds.nearFreeOtherCpuUs,
      ]);
      rounds.nearFreeGcUs.push((runnerGcMs * 1000) / r.rate.decisions);
      if (r.strikes)
        throw new Error(`replay bots took ${r.strikes} strikes: recorded answers do not line up with the runner's ids`);
      totalUs = Math.min(totalUs, r.totalUs);
      steadyUs = Math.min(steadyUs, r.steadyUs);
      replayGames += r.rate.games;
      gc0 = await gcWatch.totalMs();
      const p = await wsMatches(
        steadyBots.map((b) => b.url),
        MIN_MS / ROUNDS,
        privateKey,
        undefined,
        steadyBotMs,
      );
      gc.policyMs += (await gcWatch.totalMs()) - gc0;
      gc.policyDecisions += p.rate.decisions;
      policySteadyUs = Math.min(policySteadyUs, p.steadyUs);
      roundRatios.nearFree.push(r.steadyUs / echo.us);
      roundRatios.policy.push(p.steadyUs / echo.us);
      thisRun.nearFree.push(r.steadyUs / echo.us);
      thisRun.policy.push(p.steadyUs / echo.us);
      thisRun.echoUs.push(echo.us);
      thisRun.nearFreeUs.push(r.steadyUs);
      thisRun.policyUs.push(p.steadyUs);
    }
    rounds.echoUs.push(...thisRun.echoUs);
    rounds.nearFreeUs.push(...thisRun.nearFreeUs);
    rounds.policyUs.push(...thisRun.policyUs);
    perRun.push({
      nearFree: median(thisRun.nearFree),
      policy: median(thisRun.policy),
      echoUs: median(thisRun.echoUs),
      nearFreeUs: median(thisRun.nearFreeUs),
      policyUs: median(thisRun.policyUs),
    });
    await Promise.all([...replayBots, ...steadyBots].map((b) => b.close()));
  }
  const verdict = {
    runs,
    roundsPerRun: ROUNDS,
    nearFree: median(roundRatios.nearFree),
    nearFreeRunMin: Math.min(...perRun.map((x) => x.nearFree)),
    nearFreeRunMax: Math.max(...perRun.map((x) => x.nearFree)),
    policy: median(roundRatios.policy),
    policyRunMin: Math.min(...perRun.map((x) => x.policy)),
    policyRunMax: Math.max(...perRun.map((x) => x.policy)),
    echoUs: median(perRun.map((x) => x.echoUs)),
    botSpinUs: BOT_SPIN_US,
    // Every round's figures in run order, to see how the runner's excess moves with the echo's time.
    roundEchoUs: rounds.echoUs,
    roundNearFreeUs: rounds.nearFreeUs,
    roundPolicyUs: rounds.policyUs,
    // GC pauses and thread times (Linux) per trip / per decision; the runner's are over whole matches, so its wall twin
    // is roundNearFreeTotalUs.
    roundEchoGcUs: rounds.echoGcUs,
    roundNearFreeTotalUs: rounds.nearFreeTotalUs,
    roundNearFreeGcUs: rounds.nearFreeGcUs,
    roundEchoMainCpuUs: rounds.echoMainCpuUs,
    roundEchoMainWaitUs: rounds.echoMainWaitUs,
    roundEchoOtherCpuUs: rounds.echoOtherCpuUs,
    roundNearFreeMainCpuUs: rounds.nearFreeMainCpuUs,
    roundNearFreeMainWaitUs: rounds.nearFreeMainWaitUs,
    roundNearFreeOtherCpuUs: rounds.nearFreeOtherCpuUs,
  };
  const spread = (lo: number, hi: number) => `runs x${lo.toFixed(2)}-x${hi.toFixed(2)}`;
  gcWatch.stop();

  // Each row: the best of ROUNDS passes over the same games (one pass is ~50 ms, easily hit by a neighbour).
  const timing: Timing = {
    frameMs: Infinity,
    viewMs: Infinity,
    jsonMs: Infinity,
    parseMs: Infinity,
    submitMs: Infinity,
  };
  let tDecisions = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const pass: Timing = { frameMs: 0, viewMs: 0, jsonMs: 0, parseMs: 0, submitMs: 0 };
    tDecisions = 0;
    for (let i = 0; i < SEEDS; i++) tDecisions += playInProcess(`${SEED_PREFIX}${i}`, legalPlayer(), pass);
    for (const k of Object.keys(timing) as Array<keyof Timing>) timing[k] = Math.min(timing[k], pass[k]);
  }
  const us = (ms: number) => (ms * 1000) / tDecisions;

  return [
    {
      suite: 'runner: whole matches (4 seats)',
      baseline: 'in-process, same policy, no runner',
      rows: [
        {
          name: 'in-process, same policy, no runner',
          value: (inProc.games * 1000) / inProc.ms,
          unit: 'games/s',
          extra: perSec(inProc),
        },
        {
          name: 'runMatch, 4 built-in random seats',
          value: (builtin.games * 1000) / builtin.ms,
          unit: 'games/s',
          extra: perSec(builtin),
        },
        {
          name: 'runMatch, 4 WebSocket bots on loopback',
          value: (ws.rate.games * 1000) / ws.rate.ms,
          unit: 'games/s',
          extra: perSec(ws.rate),
        },
      ],
      notes: [
        'In-process and WebSocket rows play the same seeds with the same policy (legalActionsFromView): the same games.',
        'The built-in row plays random bots (different games); it shows the runner loop without sockets.',
        `Bots share the process and event loop with the runner; the policy costs ${((botMs * 1000) / frames).toFixed(1)} us per decision in the bot.`,
      ],
    },
    {
      suite: 'runner: time per decision vs a bare WebSocket round trip',
      baseline: 'bare ws round trip',
      headline: `verdict (median of ${runs}x${ROUNDS} interleaved rounds, each round's runner steady state / its echo): near-free bots x${verdict.nearFree.toFixed(2)} (${spread(verdict.nearFreeRunMin, verdict.nearFreeRunMax)}), policy bots x${verdict.policy.toFixed(2)} (${spread(verdict.policyRunMin, verdict.policyRunMax)}); echo ${verdict.echoUs.toFixed(1)} us${BOT_SPIN_US ? `, bots spin ${BOT_SPIN_US} us a frame` : ''}; goal x1.3 (x1.4 policy)`,
      verdict,
      rows: [
        { name: 'bare ws round trip', value: echoUs, unit: 'us', extra: { requestBytes: avgFrame } },
        { name: '  (bare round trip, frames masked as the runner does)', value: ownFramingEchoUs, unit: 'us' },
        { name: 'runner, near-free bots, steady state', value: steadyUs, unit: 'us' },
        {
          name: 'runner, near-free bots, incl. connect+close',
          value: totalUs,
          unit: 'us',
          extra: { games: replayGames },
        },
        { name: 'runner, policy bots, steady state, bot time excluded', value: policySteadyUs, unit: 'us' },
        {
          name: 'runner, policy bots, incl. connect+close, bot time excluded',
          value: ((ws.rate.ms - botMs) * 1000) / ws.rate.decisions,
          unit: 'us',
        },
        { name: '  of which: request frame from game state', value: us(timing.frameMs), unit: 'us' },
        { name: '  (the plain way: seatView)', value: us(timing.viewMs), unit: 'us' },
        { name: '  (the plain way: JSON.stringify + UTF-8)', value: us(timing.jsonMs), unit: 'us' },
        { name: '  of which: parse + schema-check answer', value: us(timing.parseMs), unit: 'us' },
        { name: '  of which: engine submit', value: us(timing.submitMs), unit: 'us' },
        {
          name: '  GC pauses, runner with near-free bots (per decision)',
          value: (gc.runnerMs * 1000) / gc.decisions,
          unit: 'us',
        },
        { name: '  GC pauses, bare ws round trip (per trip)', value: (gc.echoMs * 1000) / gc.trips, unit: 'us' },
        {
          name: '  GC pauses, runner with policy bots (per decision)',
          value: (gc.policyMs * 1000) / gc.policyDecisions,
          unit: 'us',
        },
      ],
      notes: [
        `Goal: the arena adds under 30% to a bare round trip (ratio under 1.3), under 40% with policy bots. Steady state: x${(steadyUs / echoUs).toFixed(2)}; policy bots, steady: x${(policySteadyUs / echoUs).toFixed(2)} (best against best). The verdict is the median of the rounds' own ratios, pooled over the runs (rounds: ${roundRatios.nearFree.map((x) => x.toFixed(2)).join(', ')}; policy ${roundRatios.policy.map((x) => x.toFixed(2)).join(', ')}). Per run, median echo / near-free / policy steady us: ${perRun.map((x) => `${x.echoUs.toFixed(1)}/${x.nearFreeUs.toFixed(1)}/${x.policyUs.toFixed(1)}`).join(', ')}.`,
        "Policy rows: the bot time left out is what each bot spends in its message handler before the send (JSON.parse of the request, the policy, JSON.stringify of the answer); its send stays in, as the echo server's does in the baseline. The garbage the bots make is not left out: V8 runs most scavenges as tasks between message handlers, not inside them, so their pauses land in the runner's time (the policy GC row, against the near-free one). The steady row is, like the near-free one, first answer to last of each match (connect and close are not per-decision costs), and best of the same interleaved rounds; the incl. connect+close row is one longer run.",
        'Near-free bots answer from answers recorded in-process, so nearly all of their time is the socket itself, like the echo server.',
        'The bare round trip: same frame size, a Buffer sent as a text frame with ws.send, same ws options, next frame sent from the message handler (no promise or timer per trip).',
        `The runner frames and masks its requests itself, four bytes at a time, and writes each in one call (src/runner/client-frame.ts); ws.send masks byte by byte in JavaScript on Node 20 and copies through option objects. The indented round-trip row is the bare echo sent that way: against it the runner's steady state is x${(steadyUs / ownFramingEchoUs).toFixed(2)}, policy bots x${(policySteadyUs / ownFramingEchoUs).toFixed(2)}; that difference is the runner's own work per decision.`,
        "Breakdown rows are measured in-process on the same games (submit is engine work); the runner encodes each request from the game state (src/runner/seat-frame.ts around engine/view-bytes.ts); the \"plain way\" rows build the view with seatView and encode it with JSON.stringify, on the same decisions. Of the rest, GC is the largest part: the GC rows are this thread's pauses (PerformanceObserver) over the same interleaved rounds, whole matches for the runner. They are mostly scavenges copying what a match keeps to its end: the engine's events (the replay), whose data objects outlive every young generation; with events off the runner's pauses fall to about the echo's. A finished match empties the engine's log (releaseEvents) once its replay is built: a dead log array already in the old generation would keep its young events alive through every scavenge until a full GC. A bigger or smaller young generation (--max-semi-space-size 4 or 64) makes it worse, not better. The runner's own loop without sockets costs under 2 us a decision, bot and engine included (the built-in row above).",
        `Best of ${runs}x${ROUNDS} interleaved rounds for the echo and near-free rows, best of ${ROUNDS} passes for each breakdown row (the machine is shared).`,
      ],
    },
  ];
}
