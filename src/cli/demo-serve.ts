// `arena demo --serve`: the whole hosted service on this machine in one
// command. It starts `serve --dev --same-owner allow` (one account owns every
// bot: the default, avoid, would rate none of its matches) on a temporary data directory, starts the
// example bots (each as its own process, verifying this server's handshake
// signature), makes an account, registers the bots through the signed API
// (so they pass the same URL and deploy checks as anyone's), lets the
// scheduler tick every few seconds, and prints the dashboard address and a
// sign-in link. Ctrl-C stops everything and removes the directory.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import type { ApiTarget } from '../client/api';
import { registerBot } from '../client/owner';
import { generateKeyPair } from '../keys/keypair';
import { formatPublicKey } from '../keys/public-key';
import { addKey, addUser } from '../service/admin/accounts';
import { startServer } from '../service/server';
import { openFileStore } from '../service/store/index';
import { startDemoBots, type DemoBots } from './demo-bots';
import { onStopSignals, signalExitCode, type SignalSource } from './interrupt';
import type { CliIO } from './io';

export const DEMO_SERVE_DEFAULTS = { tickSeconds: 5, email: 'demo@example.com', handle: 'demo' } as const;

export interface DemoServeOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  tickSeconds?: number;
}

/** The package root (the directory with package.json), from this module, in the sources or the bundle. */
function packageRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return null;
}

/**
 * In a checkout, (re)builds the dashboard when its sources are newer than
 * dist/web. The build script is loaded by path at run time: it needs
 * esbuild, a development dependency, so an installed package (which ships
 * dist/web) skips this.
 */
async function freshDashboard(say: (line: string) => void): Promise<void> {
  const root = packageRoot();
  const script = root && join(root, 'scripts', 'build-web.mjs');
  if (!script || !existsSync(script) || !existsSync(join(root, 'src', 'web'))) return;
  try {
    const web = (await import(pathToFileURL(script).href)) as {
      webIsFresh(): boolean;
      buildWeb(o: { quiet: boolean }): Promise<unknown>;
    };
    if (web.webIsFresh()) return;
    say('building the dashboard (npm run build:web)...');
    await web.buildWeb({ quiet: true });
  } catch (err) {
    say(`could not build the dashboard (${(err as Error).message.split('\n')[0]}); serving the build there is, if any`);
  }
}

/** Resolves on the first SIGINT/SIGTERM; a second one exits at once. */
function untilSignal(signals: SignalSource, say: (line: string) => void): { stopped: Promise<void>; dispose(): void } {
  let dispose = () => {};
  const stopped = new Promise<void>((resolve) => {
    dispose = onStopSignals(
      signals,
      (signal) => {
        say(`${signal}: stopping the service and the bots, removing the temporary directory (again to quit at once)`);
        resolve();
      },
      (signal) => signals.exit(signalExitCode(signal)),
    );
  });
  return { stopped, dispose };
}

export async function runDemoServe(io: CliIO, opts: DemoServeOptions, signals: SignalSource = process): Promise<void> {
  const say = (line: string) => void io.stderr.write(`arena demo --serve: ${line}\n`);
  const tick = opts.tickSeconds ?? DEMO_SERVE_DEFAULTS.tickSeconds;
  await freshDashboard(say);
  const dataDir = mkdtempSync(join(tmpdir(), 'arena-demo-serve-'));
  const cleanups: Array<() => Promise<unknown>> = [async () => rmSync(dataDir, { recursive: true, force: true })];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
  };
  const stop = untilSignal(signals, say);
  try {
    const store = await openFileStore(dataDir);
    cleanups.push(() => store.close());
    const links: string[] = [];
    const server = await startServer({
      store,
      dataDir,
      host: opts.host ?? '127.0.0.1',
      port: opts.port,
      dev: true,
      tickSeconds: tick,
      sameOwner: 'allow',
      // The example bots are known to play legally: they play rated from the first tick (no qualifiers).
      qualify: 'off',
      // The service's own log stays out of the way; the sign-in link is handed over here.
      logOut: { write: () => true },
      mailer: { sendSignIn: async (_to, link) => void links.push(link) },
    });
    cleanups.push(() => server.close());
    say(
      `serve --dev on ${server.url}, data in ${dataDir} (temporary), matchmaking every ${tick} s; one account owns every bot, so its tables are rated as with --same-owner allow`,
    );

    // Two of each example bot, so the scheduler fills a table of four.
    const bots: DemoBots[] = [];
    for (let i = 0; i < 2; i++) {
      const b = await startDemoBots({ platformPublicKey: server.platformKey.publicKeyBase64 });
      bots.push(b);
      cleanups.push(() => b.close());
    }

    const { email, handle } = DEMO_SERVE_DEFAULTS;
    await addUser(store, { email, handle });
    const pair = generateKeyPair();
    const key = await addKey(store, {
      user: email,
      publicKey: formatPublicKey(pair.publicKey, 'ssh'),
      name: 'demo',
      scopes: ['bots.read', 'bots.write'],
    });
    const target: ApiTarget = { baseUrl: server.url, keyId: key.id, privateKey: pair.privateKey };
    const registered: string[] = [];
    for (const [i, b] of bots.flatMap((set) => set.bots).entries()) {
      const name = i < 2 ? b.name : `${b.name}-${Math.floor(i / 2) + 1}`;
      await registerBot(target, { name, url: b.url });
      registered.push(`${name} (${b.url})`);
    }
    say(`@${handle} (${email}) registered ${registered.join(', ')}; each passed the URL and deploy checks`);

    const res = await request(`${server.url}/auth/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    await res.body.dump();
    if (res.statusCode !== 202 || links.length === 0) throw new Error(`POST /auth/email answered ${res.statusCode}`);
    const page = await request(`${server.url}/`);
    await page.body.dump();
    if (page.statusCode !== 200) say('the dashboard is not built: run `npm run build:web` in the package directory');

    io.stdout.write(`Dashboard: ${server.url}/\n`);
    io.stdout.write(`Sign in as @${handle} (valid 15 minutes, once): ${links[0]}\n`);
    say(`the first matches start within ${tick} s; press Ctrl-C to stop`);
    await stop.stopped;
  } finally {
    await cleanup();
    stop.dispose();
  }
  say('stopped; the temporary directory is removed');
}
