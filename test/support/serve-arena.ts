// A real arena service in this process for the match-plane tests: the file
// store on a temp directory (or a fresh Postgres database when the vitest
// project "postgres" runs them), startServer in dev mode (loopback bots allowed)
// with matchmaking driven by the test (tick 0, then scheduler.tick()), real
// WebSocket test bots on 127.0.0.1, and every log line captured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestStore } from './test-store';
import type { Store } from '../../src/service/store/types';
import { startServer, type RunningServer, type ServerOptions } from '../../src/service/server';
import { startTestBot, type Behaviour, type TestBot } from './test-bot';

export interface Arena {
  server: RunningServer;
  store: Store;
  url: string;
  dir: string;
  bots: Array<{ id: string; name: string; server: TestBot }>;
  /** Every log line the service wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  logText(): string;
  /** Starts one matchmaking pass; the ids of the matches it started. */
  tick(): Promise<string[]>;
  /** Resolves when no match is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startArena(behaviours: Behaviour[], opts: Partial<ServerOptions> = {}): Promise<Arena> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-serve-matches-'));
  const store = await openTestStore(dir);
  const owner = await store.createUser({ email: 'owner@example.com', name: 'owner' });
  const bots: Arena['bots'] = [];
  for (const [i, behaviour] of behaviours.entries()) {
    const server = await startTestBot({ behaviour });
    const name = `bot${i}`;
    const rec = await store.addBot({ ownerId: owner.id, name, game: 'pioneers', url: server.url });
    bots.push({ id: rec.id, name, server });
  }
  let text = '';
  const server = await startServer({
    // One owner's bots: seated and rated together (--same-owner allow) unless a test says otherwise;
    // a bot registered through the API is seated at the next tick (--qualify off) unless the test is about
    // qualification.
    store,
    dataDir: join(dir, 'data'),
    port: 0,
    dev: true,
    tickSeconds: 0,
    deadlineMs: 2000,
    sameOwner: 'allow',
    qualify: 'off',
    logOut: { write: (s: string) => (text += s) },
    ...opts,
  });
  return {
    server,
    store,
    url: server.url,
    dir,
    bots,
    get logs() {
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    logText: () => text,
    tick: () => server.scheduler.tick(),
    async idle() {
      while (server.scheduler.runningCount > 0) await new Promise((r) => setTimeout(r, 20));
    },
    async close() {
      await server.close();
      await store.close();
      for (const b of bots) await b.server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
