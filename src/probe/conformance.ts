// `arena bot check`: a conformance check for bot authors. Pings the bot,
// upgrades with a signed handshake, sees whether it verifies signatures (and,
// if it does, whether it refuses a handshake meant for another bot and a
// replayed one: the audience-bound extension, docs/protocol.md), then
// asks it one real decision of each kind and checks every answer as a match
// would: frame size, then the runner's own classification (answer-frame.ts:
// a bad frame is `malformed`; an action whose shape or rules are wrong is
// `illegal`), then latency against the deadline.
import type { KeyObject } from 'node:crypto';
import type WebSocket from 'ws';
import { seatView } from '../../engine/index';
import type { DecisionKind } from '../../engine/index';
import { classifyFrame, judgeAction, type FrameVerdict } from '../runner/answer-frame';
import { signBoundHandshake } from '../keys/handshake';
import { FRAME_CEILING_BYTES, openBotSocket } from '../runner/connect';
import { DECISION_KINDS, MAX_FRAME_BYTES, type DecisionRequest } from '../protocol/index';
import { checkPing, checkUpgrade } from './deploy-check';
import { findPosition } from './positions';
import { botAddresses } from './urls';

export interface CheckLine {
  /** e.g. "ping", "upgrade", "handshake", "decision: turn". */
  name: string;
  status: 'pass' | 'fail' | 'info';
  detail: string;
}

export interface ConformanceReport {
  url: string;
  ok: boolean;
  checks: CheckLine[];
}

export interface ConformanceOptions {
  platformKey: KeyObject;
  deadlineMs?: number;
  /** Seeds the positions; the same seed asks the same questions. */
  seed?: string;
  /** Network steps (ping, upgrade); default 5000 ms. */
  timeoutMs?: number;
}

export async function checkBot(url: string, opts: ConformanceOptions): Promise<ConformanceReport> {
  const deadlineMs = opts.deadlineMs ?? 5000;
  const timeoutMs = opts.timeoutMs ?? 5000;
  const seed = opts.seed ?? 'bot-check';
  const checks: CheckLine[] = [];
  const report = (): ConformanceReport => ({ url, ok: checks.every((c) => c.status !== 'fail'), checks });

  const addresses = botAddresses(url);
  if (!addresses) {
    checks.push({ name: 'url', status: 'fail', detail: `${url} is not a valid URL` });
    return report();
  }
  const { ping, ws } = addresses;

  const pinged = await checkPing(ping, timeoutMs);
  checks.push(
    pinged.ok
      ? { name: 'ping', status: 'pass', detail: `GET ${ping} answered pong in ${ms(pinged.ms)}` }
      : { name: 'ping', status: 'fail', detail: pinged.failure.message },
  );

  const upgraded = await checkUpgrade(ws, opts.platformKey, 'deploy-check', timeoutMs);
  checks.push(
    upgraded.ok
      ? { name: 'upgrade', status: 'pass', detail: `signed WebSocket upgrade accepted in ${ms(upgraded.ms)}` }
      : { name: 'upgrade', status: 'fail', detail: upgraded.failure.message },
  );
  if (!upgraded.ok) return report();

  const verifies = await checkVerifiesHandshake(ws, opts.platformKey, timeoutMs);
  checks.push(verifies);
  if (verifies.status === 'pass') checks.push(...(await checkBoundHandshake(ws, opts.platformKey, timeoutMs)));

  const matchId = `bot-check-${Date.now()}`;
  const session = new Session(ws, opts.platformKey, matchId, timeoutMs);
  try {
    let id = 1;
    for (const kind of DECISION_KINDS) checks.push(await askOne(session, kind, id++, matchId, seed, deadlineMs));
  } finally {
    session.close();
  }
  return report();
}

/** An upgrade with exactly these headers: 'open', the refusal's HTTP status, or 'error'. */
async function tryUpgrade(
  ws: string,
  platformKey: KeyObject,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<number | 'open' | 'error'> {
  const opened = await openBotSocket({
    url: ws,
    matchId: headers['x-svc-match'] ?? '',
    platformKey,
    headers,
    maxPayload: 1024,
    handshakeTimeoutMs: timeoutMs,
  });
  if (opened.ok) opened.socket.terminate();
  return opened.ok ? 'open' : opened.failure.code === 'upgrade_refused' ? (opened.failure.status ?? 0) : 'error';
}

/** Sends a badly signed upgrade: a bot that verifies refuses it with 401. Verifying is optional (spec 5). */
async function checkVerifiesHandshake(ws: string, platformKey: KeyObject, timeoutMs: number): Promise<CheckLine> {
  const headers = {
    'x-svc-match': 'bot-check-forged',
    'x-svc-timestamp': String(Date.now()),
    'x-svc-signature': Buffer.alloc(64).toString('base64'),
  };
  const result = await tryUpgrade(ws, platformKey, headers, timeoutMs);
  if (result === 401)
    return {
      name: 'handshake',
      status: 'pass',
      detail: 'verifies signatures: a forged handshake was refused with 401',
    };
  if (result === 'open')
    return {
      name: 'handshake',
      status: 'info',
      detail:
        'accepts unsigned/forged handshakes (verifying is optional; `arena play --print-platform-key` prints the public key to verify with)',
    };
  return {
    name: 'handshake',
    status: 'fail',
    detail: `a forged handshake got ${result === 'error' ? 'a network error' : `HTTP ${result}`}; a verifying bot must answer 401`,
  };
}

/**
 * For a bot that verifies: a handshake truly signed by the platform but
 * addressed to another bot's URL, and one good handshake sent twice. A bot
 * that checks only the spec's signature accepts both (a replay another
 * bot's owner can mount); that is reported, not failed, as the check is an
 * extension.
 */
async function checkBoundHandshake(ws: string, platformKey: KeyObject, timeoutMs: number): Promise<CheckLine[]> {
  const guide = 'docs/protocol.md, "Checking the handshake"';
  const lines: CheckLine[] = [];
  const elsewhere = await tryUpgrade(
    ws,
    platformKey,
    signBoundHandshake(platformKey, 'bot-check-audience', 'wss://another-bot.invalid/'),
    timeoutMs,
  );
  lines.push(
    elsewhere === 401
      ? {
          name: 'audience',
          status: 'pass',
          detail: "refused a handshake the arena signed for another bot's URL (x-svc-audience) with 401",
        }
      : elsewhere === 'open'
        ? {
            name: 'audience',
            status: 'info',
            detail: `accepted a handshake the arena signed for another bot: its owner could replay one to you; check x-svc-audience against your own public URL (${guide})`,
          }
        : {
            name: 'audience',
            status: 'fail',
            detail: `a handshake for another bot got ${elsewhere === 'error' ? 'a network error' : `HTTP ${elsewhere}`}; a verifying bot must answer 401`,
          },
  );
  const once = signBoundHandshake(platformKey, 'bot-check-replay', ws);
  const first = await tryUpgrade(ws, platformKey, once, timeoutMs);
  if (first !== 'open') {
    lines.push({
      name: 'replay',
      status: 'fail',
      detail: `a good handshake addressed to this URL got ${first === 'error' ? 'a network error' : `HTTP ${first}`}`,
    });
    return lines;
  }
  const again = await tryUpgrade(ws, platformKey, once, timeoutMs);
  lines.push(
    again === 401
      ? {
          name: 'replay',
          status: 'pass',
          detail: 'refused the same handshake sent twice (x-svc-nonce seen before) with 401',
        }
      : again === 'open'
        ? {
            name: 'replay',
            status: 'info',
            detail: `accepted the same handshake twice: remember x-svc-nonce for 30 s and refuse it again (${guide})`,
          }
        : {
            name: 'replay',
            status: 'fail',
            detail: `a replayed handshake got ${again === 'error' ? 'a network error' : `HTTP ${again}`}; a verifying bot must answer 401`,
          },
  );
  return lines;
}

async function askOne(
  session: Session,
  kind: DecisionKind,
  id: number,
  matchId: string,
  seed: string,
  deadlineMs: number,
): Promise<CheckLine> {
  const name = `decision: ${kind}`;
  const pos = findPosition(kind, seed);
  if (!pos) return { name, status: 'info', detail: `skipped: no ${kind} position found in the sample games` };
  const request: DecisionRequest = {
    id,
    matchId,
    game: 'pioneers',
    seat: pos.seat,
    kind,
    deadlineMs,
    view: seatView(pos.game, pos.seat) as DecisionRequest['view'],
  };
  const answer = await session.ask(request, deadlineMs);
  if (answer.kind === 'closed')
    return { name, status: 'fail', detail: `the socket closed before an answer (${answer.why})` };
  if (answer.kind === 'timeout')
    return {
      name,
      status: 'fail',
      detail: `no answer within deadlineMs ${deadlineMs} ms (late: one strike in a match)`,
    };
  const where = `(${ms(answer.ms)}, ${answer.bytes} bytes)`;
  const v = answer.verdict;
  if (v === null)
    return {
      name,
      status: 'fail',
      detail: `answer frame is ${answer.bytes} bytes, over the ${MAX_FRAME_BYTES}-byte limit (oversize strike)`,
    };
  // Stale frames never get here (the session ignores them, as a match does).
  if (v.type !== 'answer')
    return {
      name,
      status: 'fail',
      detail: `answer frame is malformed ${where}: ${v.type === 'malformed' ? v.detail : `stale id ${v.id}`} (malformed strike)`,
    };
  const action = snippet(JSON.stringify(v.action) ?? 'undefined');
  const judged = judgeAction(pos.game, pos.seat, v.action);
  if (judged.type === 'illegal')
    return { name, status: 'fail', detail: `illegal ${kind} action ${action}: ${judged.detail} (illegal strike)` };
  if (answer.ms > deadlineMs)
    return {
      name,
      status: 'fail',
      detail: `answered after ${ms(answer.ms)}, past the ${deadlineMs} ms deadline (late strike)`,
    };
  return { name, status: 'pass', detail: `legal ${action} ${where}` };
}

type Answer =
  /** verdict: the runner's classification of the frame; null when it is over MAX_FRAME_BYTES (not read). */
  | { kind: 'frame'; verdict: FrameVerdict | null; bytes: number; ms: number }
  | { kind: 'timeout' }
  | { kind: 'closed'; why: string };

/** One signed socket, reopened (freshly signed) if the bot drops it, like the runner does. */
class Session {
  private socket: WebSocket | null = null;
  private waiter: ((a: Answer) => void) | null = null;
  /** Ids already asked: a late answer to one of them is ignored, as in a match. */
  private readonly asked = new Set<number>();
  private current = -1;

  constructor(
    private readonly url: string,
    private readonly key: KeyObject,
    private readonly matchId: string,
    private readonly timeoutMs: number,
  ) {}

  private async open(): Promise<WebSocket | string> {
    // The runner's client path; frames up to its ceiling are read, so an oversize answer is measured, not just cut off.
    const opened = await openBotSocket({
      url: this.url,
      matchId: this.matchId,
      platformKey: this.key,
      maxPayload: FRAME_CEILING_BYTES,
      handshakeTimeoutMs: this.timeoutMs,
      onSocket: (socket) => this.listen(socket),
    });
    return opened.ok ? opened.socket : opened.failure.message;
  }

  private listen(socket: WebSocket): void {
    socket.on('error', (err) => this.waiter?.({ kind: 'closed', why: err.message }));
    socket.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      // As the runner does: size first, then classifyFrame (binary frames are malformed, never read as text).
      const verdict =
        buf.length > MAX_FRAME_BYTES ? null : classifyFrame(buf, isBinary, this.current, (id) => this.asked.has(id));
      if (verdict?.type === 'stale') return; // an answer to an earlier question: ignored, as in a match
      this.waiter?.({ kind: 'frame', verdict, bytes: buf.length, ms: 0 });
    });
    socket.on('close', (code) => {
      if (this.socket === socket) this.socket = null;
      this.waiter?.({ kind: 'closed', why: `close code ${code}` });
    });
  }

  async ask(request: DecisionRequest, deadlineMs: number): Promise<Answer> {
    this.asked.add(request.id);
    this.current = request.id;
    if (!this.socket) {
      const s = await this.open();
      if (typeof s === 'string') return { kind: 'closed', why: s };
      this.socket = s;
    }
    const socket = this.socket;
    return new Promise<Answer>((resolve) => {
      const start = performance.now();
      // Wait a little past the deadline so a late answer is reported as late, with its time.
      const timer = setTimeout(() => done({ kind: 'timeout' }), deadlineMs + Math.min(1000, deadlineMs));
      const done = (a: Answer) => {
        clearTimeout(timer);
        this.waiter = null;
        resolve(a.kind === 'frame' ? { ...a, ms: performance.now() - start } : a);
      };
      this.waiter = done;
      socket.send(JSON.stringify(request));
    });
  }

  close(): void {
    this.socket?.close(1000, 'bot check done');
    this.socket = null;
  }
}

function ms(x: number): string {
  return `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`;
}

function snippet(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}...` : text;
}

/** One line per check, ✓ / ✗ / i, then the verdict. */
export function formatReport(r: ConformanceReport): string {
  const mark = { pass: '✓', fail: '✗', info: 'i' } as const;
  const w = Math.max(...r.checks.map((c) => c.name.length));
  const lines = r.checks.map((c) => `${mark[c.status]} ${c.name.padEnd(w)}  ${c.detail}`);
  const failed = r.checks.filter((c) => c.status === 'fail').length;
  lines.push('', r.ok ? passVerdict(r) : `FAIL: ${failed} check${failed === 1 ? '' : 's'} failed for ${r.url}.`);
  return lines.join('\n');
}

/** What a pass means: one position per kind, not a whole game; so it says what was checked and what to run next. */
function passVerdict(r: ConformanceReport): string {
  const kinds = r.checks
    .filter((c) => c.name.startsWith('decision: ') && c.status === 'pass')
    .map((c) => c.name.slice('decision: '.length));
  const answered = kinds.length
    ? `a legal answer in time to one ${kinds.join(', ')} decision`
    : 'no decision (none was asked)';
  return [
    `PASS: ${r.url} answered ping, accepted a signed upgrade and gave ${answered}.`,
    'That is one position per kind, not a whole game. Next, play full matches and see each strike as it happens:',
    `  arena play ${r.url} builtin:greedy builtin:random --verbose`,
  ].join('\n');
}
