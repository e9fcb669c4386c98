// The demo's line-up: both example bots, each started as its own process the
// way their READMEs say (`node --import tsx examples/<bot>/bot.ts`), so the
// demo always runs the examples as they are on disk and production code never
// imports the copy-me examples; an installed package without tsx and the
// single executable run their bundles (example-bot-command.ts). Plus
// builtin:greedy and builtin:random.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IN_BINARY } from '../docs/package-files';
import { exampleBotCommand } from './example-bot-command';

export const DEMO_EXAMPLES = ['starter', 'heuristic'] as const;

export interface DemoBot {
  name: (typeof DEMO_EXAMPLES)[number];
  url: string;
}

export interface DemoBots {
  bots: DemoBot[];
  /** `arena play` arguments for the whole line-up. */
  args: string[];
  close(): Promise<void>;
}

export interface DemoBotOptions {
  host?: string;
  /** base64 public platform key: the bots then refuse handshakes it did not sign. */
  platformPublicKey?: string;
  /** The package root holding examples/; found from this module by default. */
  root?: string;
  /** Longest wait for one bot to say it is listening. */
  startTimeoutMs?: number;
}

export class DemoBotError extends Error {
  override readonly name = 'DemoBotError';
}

export async function startDemoBots(opts: DemoBotOptions = {}): Promise<DemoBots> {
  // The single executable carries its examples; it has no package directory.
  const root = opts.root ?? (IN_BINARY ? process.cwd() : packageRoot());
  const started: RunningExample[] = [];
  try {
    for (const name of DEMO_EXAMPLES) started.push(await startExample(root, name, opts));
  } catch (err) {
    await Promise.all(started.map((b) => b.stop()));
    throw err;
  }
  const bots = started.map((b) => ({ name: b.name, url: b.url }));
  return {
    bots,
    args: [...bots.map((b) => `${b.name}=${b.url}`), 'builtin:greedy', 'builtin:random'],
    close: async () => {
      await Promise.all(started.map((b) => b.stop()));
    },
  };
}

interface RunningExample extends DemoBot {
  stop(): Promise<void>;
}

function startExample(root: string, name: DemoBot['name'], opts: DemoBotOptions): Promise<RunningExample> {
  const launch = exampleBotCommand(root, name);
  const script = launch.file ?? `${name}-bot`;
  if (launch.file && !existsSync(launch.file))
    return Promise.reject(new DemoBotError(`the demo needs ${launch.file}, which is missing`));
  const args = [...launch.args, '--port', '0', '--host', opts.host ?? '127.0.0.1', '--quiet'];
  if (opts.platformPublicKey) args.push('--platform-key', opts.platformPublicKey);
  // cwd = the package root, so `--import tsx` resolves the package's own tsx.
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', ...launch.env },
  });
  const killOnExit = () => child.kill('SIGKILL');
  // A second Ctrl-C exits the arena at once; its bots must not outlive it.
  process.once('exit', killOnExit);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const waitMs = opts.startTimeoutMs ?? 30_000;
    let err = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() =>
        reject(new DemoBotError(`example bot ${name} (${script}) ${why}${err.trim() ? `:\n${lastLines(err)}` : ''}`)),
      );
    };
    const timer = setTimeout(() => fail(`did not start within ${waitMs / 1000} s`), waitMs);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      // Keep draining stderr for the bot's whole life; remember its tail for errors.
      err = (err + chunk).slice(-4000);
      const m = settled ? null : /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        settled = true;
        clearTimeout(timer);
        resolve({ name, url: m[1], stop });
      }
    });
    child.once('error', (e) => fail(`could not start: ${e.message}`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`}) before listening`));
  });
}

function lastLines(text: string): string {
  return text
    .trim()
    .split('\n')
    .slice(-5)
    .map((l) => `  ${l}`)
    .join('\n');
}

/** The directory holding this package's package.json (src/cli in a checkout, dist/ in the bundle). */
function packageRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'bot-arena')
      return dir;
    if (dirname(dir) === dir)
      throw new DemoBotError('cannot find the bot-arena package directory (examples/ lives there)');
  }
}
