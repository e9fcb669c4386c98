// Frames may grow fields a bot does not know: every example bot (the starters
// `arena new` writes come from these) must ignore them. Each bot gets real
// request frames, with timeBankMs, lastRttMs and an invented future field,
// for every decision of its seat in a whole game, and must answer each with
// an action the engine accepts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { defaultAction, isOver, newGame, pendingDecisions, submit } from '../../engine/index';
import { judgeAction } from '../../src/runner/answer-frame';
import { SeatFrameWriter } from '../../src/runner/seat-frame';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';

const root = resolve(__dirname, '../..');
const children: ChildProcess[] = [];
const closers: Array<() => Promise<void>> = [];
const tmp = mkdtempSync(join(tmpdir(), 'arena-new-fields-'));
afterAll(async () => {
  for (const c of children) c.kill();
  for (const close of closers) await close();
  rmSync(tmp, { recursive: true, force: true });
});

function works(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

/** Starts a bot program; resolves with its http URL once it says where it listens. */
function startProgram(cmd: string, args: string[], cwd: string): Promise<string> {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((ok, fail) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => fail(new Error(`${cmd} exited with ${code}: ${out}`)));
  });
}

/**
 * Plays one game: seat 0's decisions go to the bot, with the new fields; the other seats play the engine's defaults.
 */
async function playWithNewFields(httpUrl: string, seed: string): Promise<{ asked: number; kinds: Set<string> }> {
  const ws = new WebSocket(httpUrl.replace(/^http/, 'ws'));
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  const answers: string[] = [];
  let wake: (() => void) | null = null;
  ws.on('message', (d) => {
    answers.push(String(d));
    wake?.();
  });
  const next = async (): Promise<string> => {
    while (answers.length === 0) await new Promise<void>((r) => (wake = r));
    wake = null;
    return answers.shift()!;
  };
  const g = newGame(seed, 4);
  const writer = new SeatFrameWriter();
  const kinds = new Set<string>();
  let id = 0;
  let bank = 120_000;
  let lastRtt: number | undefined;
  try {
    while (!isOver(g) && id < 3000) {
      const d = pendingDecisions(g)[0];
      if (d.seat !== 0) {
        expect(submit(g, d.seat, defaultAction(g, d.seat)).ok).toBe(true);
        continue;
      }
      id++;
      const frame = writer.write(id, 'm-new-fields', 0, d.kind, 5000, g, bank, lastRtt);
      // A field no bot knows yet, first in the frame.
      ws.send(`{"futureField":{"list":[1,2],"note":"ignore me"},${frame.slice(1)}`);
      const t0 = Date.now();
      const answer = JSON.parse(await next()) as { id: number; action: unknown };
      lastRtt = Date.now() - t0;
      bank -= lastRtt;
      expect(answer.id).toBe(id);
      const v = judgeAction(g, 0, answer.action);
      expect(v.type, JSON.stringify(v)).toBe('applied');
      kinds.add(d.kind);
    }
  } finally {
    ws.close();
  }
  return { asked: id, kinds };
}

const bots: Array<{ name: string; missing: () => string | undefined; start: () => Promise<string> }> = [
  {
    name: 'starter-bot (TypeScript)',
    missing: () => undefined,
    start: async () => {
      const b = await startStarter({ port: 0 });
      closers.push(() => b.close());
      return b.url;
    },
  },
  {
    name: 'heuristic-bot',
    missing: () => undefined,
    start: async () => {
      const b = await startHeuristic({ port: 0 });
      closers.push(() => b.close());
      return b.url;
    },
  },
  {
    name: 'javascript-bot',
    missing: () => undefined,
    start: () =>
      startProgram(process.execPath, ['bot.mjs', '--port', '0', '--quiet'], join(root, 'examples/javascript-bot')),
  },
  {
    name: 'python-bot',
    missing: () =>
      works('/usr/bin/python3', ['-c', 'import websockets'])
        ? undefined
        : 'python3 with websockets (apt-get install python3-websockets)',
    start: () =>
      startProgram('/usr/bin/python3', ['bot.py', '--port', '0', '--quiet'], join(root, 'examples/python-bot')),
  },
  {
    name: 'go-bot',
    missing: () =>
      works('go', ['version']) && existsSync('/usr/share/gocode/src/github.com/gorilla/websocket')
        ? undefined
        : 'go and gorilla/websocket',
    start: () => {
      // The README's offline build (GOPATH mode from Debian's Go sources).
      const bin = join(tmp, 'go-bot');
      const built = spawnSync('go', ['build', '-o', bin, '.'], {
        cwd: join(root, 'examples/go-bot'),
        env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: join(tmp, 'gocache') },
        encoding: 'utf8',
      });
      if (built.status !== 0) throw new Error(`go build failed: ${built.stderr}`);
      return startProgram(bin, ['--port', '0', '--quiet'], join(root, 'examples/go-bot'));
    },
  },
];

describe('example bots ignore request fields they do not know', () => {
  for (const bot of bots) {
    const missing = bot.missing();
    // CI installs every toolchain, so there a missing one is a failure, not a skip.
    const test = missing && !process.env.CI ? it.skip : it;
    test(`${bot.name} answers every decision of a game whose frames carry timeBankMs, lastRttMs and an unknown field`, async () => {
      if (missing) throw new Error(`${bot.name} needs ${missing}`);
      const url = await bot.start();
      const { asked, kinds } = await playWithNewFields(url, `new-fields/${bot.name}`);
      expect(asked).toBeGreaterThan(20);
      expect(kinds.has('setup') && kinds.has('turn')).toBe(true);
    }, 120_000);
  }
});
