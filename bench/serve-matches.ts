// The match plane under load: 200 matches at once against 200 WebSocket bot
// servers on loopback, in this process, played twice in the same run:
//   1. the runner alone: 200 runMatch calls, nothing else;
//   2. the service: startServer in dev mode (file store, scheduler, live hub,
//      HTTP), one tick seats 800 registered bots (four per bot server) at 200
//      tables, and 50 live viewers follow 25 of the matches over SSE.
// The two alternate for ROUNDS rounds and each reports its best round (the
// machine may be shared: other work only ever adds latency), like the
// runner bench's interleaved rounds.
// Per decision it reports the time from the request sent to the answer
// received (the runner's own measure) in both, and the difference as the
// service's added latency; the service's own work on each decision round's
// path (the live hub's publish); the event loop's delay (perf_hooks
// monitorEventLoopDelay) and the peak RSS of each phase. Goal: p99 added
// latency <= 5 ms and no match aborted.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { createServer } from 'node:http';
import { newTournamentSeed } from '../src/arena/seeds';
import { generateKeyPair } from '../src/keys';
import type { DecisionRequest } from '../src/protocol';
import { runMatch, type MatchEntrant, type MatchResult } from '../src/runner';
import { LiveChannel, LiveHub } from '../src/service/live/hub';
import { startServer } from '../src/service/server';
import { openFileStore } from '../src/service/store/index';
import { legalPlayer } from '../test/support/policies';
import type { BenchSuite } from './harness';

const MATCHES = Number(process.env.BENCH_MATCHES ?? 200);
const BOT_SERVERS = Number(process.env.BENCH_BOTS ?? 200);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 50);
const WATCHED = Math.max(1, Math.floor(VIEWERS / 2));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface BotServer {
  url: string;
  close(): Promise<void>;
}

/** A bot server on 127.0.0.1: /ping, and a legal player (legalActionsFromView) on every socket. */
async function startBot(): Promise<BotServer> {
  const play = legalPlayer();
  const http = createServer((req, res) => {
    if (req.url === '/ping') res.writeHead(200).end('pong');
    else res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    ws.on('message', (data: Buffer) => {
      const req = JSON.parse(data.toString()) as DecisionRequest;
      ws.send(JSON.stringify({ id: req.id, action: play(req.view, req.kind, req.matchId) }));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => http.close(() => r()));
      }),
  };
}

/** Samples of one phase: decision latencies, event-loop delay, peak RSS. */
class Phase {
  readonly latencies: number[] = [];
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });
  private rssPeak = 0;
  private timer: NodeJS.Timeout | null = null;
  private t0 = 0;
  private cpu0 = process.cpuUsage();
  ms = 0;
  /** CPU time of the whole process over the phase (user + system), ms. */
  cpuMs = 0;

  start(): void {
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
    this.loop.enable();
    this.timer = setInterval(() => (this.rssPeak = Math.max(this.rssPeak, process.memoryUsage().rss)), 100);
  }

  take(result: MatchResult): void {
    for (const s of result.seats) for (const ms of s.latenciesMs) this.latencies.push(ms);
  }

  stop(): void {
    this.ms = performance.now() - this.t0;
    const cpu = process.cpuUsage(this.cpu0);
    this.cpuMs = (cpu.user + cpu.system) / 1000;
    this.loop.disable();
    if (this.timer) clearInterval(this.timer);
    this.rssPeak = Math.max(this.rssPeak, process.memoryUsage().rss);
  }

  /** CPU per decision, microseconds. */
  get cpuUs(): number {
    return (this.cpuMs * 1000) / Math.max(1, this.latencies.length);
  }

  pct(p: number): number {
    return pctOf(this.latencies, p);
  }

  loopMs(p: number | 'max'): number {
    return (p === 'max' ? this.loop.max : this.loop.percentile(p)) / 1e6;
  }

  get rssMiB(): number {
    return this.rssPeak / (1024 * 1024);
  }
}

function pctOf(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/**
 * The live viewers, in a child process: they read their streams and count
 * messages there, so their parsing is not counted as the service's CPU. URLs
 * go in one per line on stdin; on end of input the child waits for its
 * streams to end and prints its counts as JSON.
 */
const VIEWER_CHILD = `
import { request } from 'node:http';
const counts = { messages: 0, bytes: 0, ended: 0, failed: 0 };
const open = [];
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buffered += d;
  const lines = buffered.split('\\n');
  buffered = lines.pop();
  for (const url of lines) open.push(new Promise((resolve) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) { counts.failed++; res.resume(); return resolve(); }
      res.on('data', (chunk) => {
        counts.bytes += chunk.length;
        for (let i = chunk.indexOf('\\n\\n'); i !== -1; i = chunk.indexOf('\\n\\n', i + 2)) counts.messages++;
      });
      res.on('end', () => { counts.ended++; resolve(); });
    });
    req.on('error', () => { counts.failed++; resolve(); });
    req.end();
  }));
});
process.stdin.on('end', async () => { await Promise.all(open); process.stdout.write(JSON.stringify(counts)); });
`;

interface ViewerCounts {
  messages: number;
  bytes: number;
  ended: number;
  failed: number;
}

function startViewers(): { watch(url: string): void; done(): Promise<ViewerCounts> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', VIEWER_CHILD], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  return {
    watch: (url) => void child.stdin.write(url + '\n'),
    done: async () => {
      child.stdin.end();
      await exited;
      return JSON.parse(out) as ViewerCounts;
    },
  };
}

async function runnerAlone(
  bots: BotServer[],
  platformKey: ReturnType<typeof generateKeyPair>['privateKey'],
): Promise<{ phase: Phase; aborted: number; strikes: number }> {
  const phase = new Phase();
  phase.start();
  let aborted = 0;
  let strikes = 0;
  await Promise.all(
    Array.from({ length: MATCHES }, async (_, m) => {
      const entrants: MatchEntrant[] = [0, 1, 2, 3].map((k) => {
        const bot = bots[(m * 4 + k) % bots.length];
        return { botId: `b${m}-${k}`, botName: `b${m}-${k}`, source: { type: 'ws', url: bot.url } };
      });
      const r = await runMatch({ matchId: `runner-${m}`, seed: newTournamentSeed(), entrants, platformKey });
      if (r.match.status !== 'completed') aborted++;
      strikes += r.seats.reduce((n, s) => n + s.strikeLog.length, 0);
      phase.take(r);
    }),
  );
  phase.stop();
  return { phase, aborted, strikes };
}

async function service(bots: BotServer[], matches = MATCHES, viewerCount = VIEWERS) {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-serve-'));
  const store = await openFileStore(join(dir, 'data'));
  const owner = await store.createUser({ email: 'bench@example.com', name: 'bench' });
  // Four registered bots per bot server: 800 bots, so one tick seats 200 tables of 4.
  for (let i = 0; i < matches * 4; i++)
    await store.addBot({ ownerId: owner.id, name: `bench${i}`, game: 'pioneers', url: bots[i % bots.length].url });
  // Every viewer comes from 127.0.0.1: lift the per-address cap on open streams.
  const server = await startServer({
    store,
    dataDir: join(dir, 'data'),
    port: 0,
    dev: true,
    tickSeconds: 0,
    liveStreamsPerAddress: viewerCount + 1,
    maxMatches: matches,
    sameOwner: 'allow',
  });
  const phase = new Phase();
  const ended = { completed: 0, aborted: 0, strikes: 0 };
  // Viewers join as the matches open (before their first decision), two per match on the first WATCHED.
  const viewerProcess = startViewers();
  const open = LiveHub.prototype.open;
  let opened = 0;
  LiveHub.prototype.open = function watched(this: LiveHub, ...args: Parameters<typeof open>) {
    const ch = open.apply(this, args);
    if (opened++ < Math.min(WATCHED, viewerCount))
      for (let v = 0; v < viewerCount / Math.min(WATCHED, viewerCount); v++)
        viewerProcess.watch(`${server.url}/matches/${ch.header.id}/live`);
    return ch;
  };
  // The service's own work on the decision path: the live hub's publish after each round.
  const publishMs: number[] = [];
  const publish = LiveChannel.prototype.publish;
  LiveChannel.prototype.publish = function timed(this: LiveChannel, ...args: Parameters<typeof publish>) {
    const t = performance.now();
    publish.apply(this, args);
    publishMs.push(performance.now() - t);
  };
  const original = server.metrics.matchEnded.bind(server.metrics);
  server.metrics.matchEnded = (status, result) => {
    original(status, result);
    ended[status]++;
    if (result) {
      phase.take(result);
      ended.strikes += result.seats.reduce((n, s) => n + s.strikeLog.length, 0);
    }
  };
  phase.start();
  const started = await server.scheduler.tick();
  LiveHub.prototype.open = open;
  while (server.scheduler.runningCount > 0) await new Promise((r) => setTimeout(r, 50));
  phase.stop();
  const viewers = await viewerProcess.done();
  LiveChannel.prototype.publish = publish;
  const aborted = (await store.listMatchSummaries({ status: 'aborted', limit: 100 })).matches.length;
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return { phase, started: started.length, ended, aborted, viewers, publishMs };
}

export async function run(): Promise<BenchSuite[]> {
  const { privateKey } = generateKeyPair();
  const bots = await Promise.all(Array.from({ length: BOT_SERVERS }, () => startBot()));
  // Warm-up: JIT the engine, runner, ws, the bots' policy and the service before anything is timed.
  await Promise.all(
    Array.from({ length: 8 }, (_, m) =>
      runMatch({
        matchId: `warm-${m}`,
        seed: `warm-${m}`,
        platformKey: privateKey,
        entrants: [0, 1, 2, 3].map((k) => ({
          botId: `w${k}`,
          botName: `w${k}`,
          source: { type: 'ws', url: bots[(m * 4 + k) % bots.length].url },
        })),
      }),
    ),
  );
  await service(bots, 8, 4);

  // Alternate, and keep each side's best round (by p99).
  type Svc = Awaited<ReturnType<typeof service>>;
  type Alone = Awaited<ReturnType<typeof runnerAlone>>;
  let svc: Svc | null = null;
  let alone: Alone | null = null;
  let aborted = 0;
  const rounds: string[] = [];
  /** Service p99 minus runner p99, round by round (the two sides of a round ran back to back). */
  const addedP99: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sv = await service(bots);
    const al = await runnerAlone(bots, privateKey);
    aborted += sv.aborted + sv.ended.aborted + al.aborted;
    addedP99.push(sv.phase.pct(99) - al.phase.pct(99));
    rounds.push(
      `round ${round + 1}: runner p50/p99 ${al.phase.pct(50).toFixed(1)}/${al.phase.pct(99).toFixed(1)} ms, ${al.phase.cpuUs.toFixed(0)} us CPU; service ${sv.phase.pct(50).toFixed(1)}/${sv.phase.pct(99).toFixed(1)} ms, ${sv.phase.cpuUs.toFixed(0)} us CPU`,
    );
    if (!svc || sv.phase.pct(99) < svc.phase.pct(99)) svc = sv;
    if (!alone || al.phase.pct(99) < alone.phase.pct(99)) alone = al;
  }
  await Promise.all(bots.map((b) => b.close()));

  const a = alone!.phase;
  const s = svc!.phase;
  const added = { p50: s.pct(50) - a.pct(50), p99: s.pct(99) - a.pct(99) };
  const worst = Math.max(...addedP99);
  const verdict = worst <= 5 && aborted === 0 ? 'met' : 'NOT met';
  return [
    {
      suite: `serve-matches: time per decision, ${MATCHES} concurrent matches, ${BOT_SERVERS} ws bots on loopback`,
      baseline: 'runner alone, p50',
      rows: [
        {
          name: 'runner alone, p50',
          value: a.pct(50),
          unit: 'ms',
          extra: {
            decisions: a.latencies.length,
            matches: MATCHES,
            aborted: alone!.aborted,
            strikes: alone!.strikes,
            wallMs: Math.round(a.ms),
          },
        },
        { name: 'runner alone, p99', value: a.pct(99), unit: 'ms' },
        {
          name: `service + ${VIEWERS} viewers, p50`,
          value: s.pct(50),
          unit: 'ms',
          extra: {
            decisions: s.latencies.length,
            matches: svc!.started,
            completed: svc!.ended.completed,
            aborted: svc!.aborted,
            strikes: svc!.ended.strikes,
            wallMs: Math.round(s.ms),
          },
        },
        { name: `service + ${VIEWERS} viewers, p99`, value: s.pct(99), unit: 'ms' },
        { name: 'added by the service, p50', value: added.p50, unit: 'ms' },
        { name: 'added by the service, p99', value: added.p99, unit: 'ms' },
        {
          name: 'CPU per decision, runner alone',
          value: a.cpuUs / 1000,
          unit: 'ms',
          extra: { us: a.cpuUs.toFixed(0) },
        },
        {
          name: 'CPU per decision, service',
          value: s.cpuUs / 1000,
          unit: 'ms',
          extra: { us: s.cpuUs.toFixed(0), addedUs: (s.cpuUs - a.cpuUs).toFixed(0) },
        },
        {
          name: 'service work per decision round (hub publish), p50',
          value: pctOf(svc!.publishMs, 50),
          unit: 'ms',
          extra: { rounds: svc!.publishMs.length },
        },
        {
          name: 'service work per decision round (hub publish), p99',
          value: pctOf(svc!.publishMs, 99),
          unit: 'ms',
          extra: { maxMs: svc!.publishMs.reduce((m, x) => Math.max(m, x), 0).toFixed(2) },
        },
      ],
      notes: [
        `Goal: p99 added latency <= 5 ms and no match aborted: ${verdict} (added p99 by round: ${addedP99.map((x) => `${x.toFixed(1)} ms`).join(', ')}; ${aborted} matches aborted in all rounds). With 200 matches and their bots on one event loop a decision mostly waits its turn behind the others, and that wait swings by tens of ms between runs on a shared machine: the CPU rows below are the steadier measure of what the service adds.`,
        `Best of ${ROUNDS} alternating rounds per side (by p99): ${rounds.join('; ')}.`,
        'Per decision: request sent to answer received, as the runner measures it (SeatStats.latenciesMs), over every decision of every match.',
        "Both phases play the same number of matches at once against the same bot servers with the same policy, in this one process: bots, runner, service and viewers share one event loop, so queueing behind the other matches is in both numbers and the difference is the service's own work (store, scheduler, hub, SSE, HTTP).",
        'CPU per decision: this process (bots and runner in both, plus the service in the second) over the phase, divided by its decisions; unlike latency it hardly depends on what else the machine runs.',
        "Hub publish: the service's synchronous work between a round's answers and the next request (public form and SSE text of each event, the public view when someone watches, writes to the viewers).",
        `Live viewers: ${VIEWERS} SSE streams on ${Math.min(WATCHED, svc!.started)} matches, read by a child process (their parsing is not the service's CPU); ${svc!.viewers.messages} messages, ${(svc!.viewers.bytes / (1024 * 1024)).toFixed(1)} MiB delivered, ${svc!.viewers.ended} streams ended with their match, ${svc!.viewers.failed} failed.`,
      ],
    },
    {
      suite: 'serve-matches: event loop and memory',
      baseline: 'runner alone: event-loop delay p99',
      rows: [
        { name: 'runner alone: event-loop delay p50', value: a.loopMs(50), unit: 'ms' },
        {
          name: 'runner alone: event-loop delay p99',
          value: a.loopMs(99),
          unit: 'ms',
          extra: { maxMs: a.loopMs('max').toFixed(1) },
        },
        { name: 'service: event-loop delay p50', value: s.loopMs(50), unit: 'ms' },
        {
          name: 'service: event-loop delay p99',
          value: s.loopMs(99),
          unit: 'ms',
          extra: { maxMs: s.loopMs('max').toFixed(1) },
        },
        { name: 'runner alone: peak RSS', value: a.rssMiB, unit: 'MiB' },
        { name: 'service: peak RSS', value: s.rssMiB, unit: 'MiB' },
      ],
      notes: [
        'monitorEventLoopDelay at 10 ms resolution over each phase; RSS sampled every 100 ms (the process also holds the bots).',
      ],
    },
  ];
}
