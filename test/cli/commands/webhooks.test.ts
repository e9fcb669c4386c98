// `arena webhooks add|list|remove|deliveries`, run as the real commander
// program against a real server (startServer on a file store, --dev, port 0)
// and a real receiver on 127.0.0.1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_NAMES } from '../../../src/cli/commands/webhooks';
import { formatPublicKey, generateKeyPair, privateKeyToPem } from '../../../src/keys/index';
import { WEBHOOK_EVENTS, WebhookDeliveryListSchema, WebhookSchema } from '../../../src/protocol/webhooks';
import { addKey, addUser } from '../../../src/service/admin/accounts';
import { startServer, type RunningServer } from '../../../src/service/server';
import { openFileStore, type FileStore } from '../../../src/service/store/file-store';
import { runCli } from '../../support/run-cli';

let dir: string;
let store: FileStore;
let server: RunningServer;
let receiver: Server;
let receiverUrl: string;
let ownerId: string;
let env: Record<string, string>;
const got: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-webhooks-cli-'));
  store = await openFileStore(join(dir, 'data'));
  const user = await addUser(store, { email: 'ops@example.com', handle: 'ops' });
  ownerId = user.id;
  const pair = generateKeyPair();
  writeFileSync(join(dir, 'ops.pem'), privateKeyToPem(pair.privateKey), { mode: 0o600 });
  const keyId = (await addKey(store, { user: user.id, publicKey: formatPublicKey(pair.publicKey, 'raw') })).id;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
  server = await startServer({
    store,
    dataDir: join(dir, 'data'),
    port: 0,
    dev: true,
    tickSeconds: 0,
    webhookPollMs: 20,
    logOut: { write: () => true },
  });
  env = {
    HOME: dir,
    ARENA_CONFIG_DIR: join(dir, 'config'),
    ARENA_URL: server.url,
    ARENA_KEY_ID: keyId,
    ARENA_KEY_FILE: join(dir, 'ops.pem'),
  };
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { env, cwd: dir });

describe('arena webhooks', () => {
  it('the CLI knows the same events as the API', () => {
    expect([...WEBHOOK_EVENT_NAMES]).toEqual([...WEBHOOK_EVENTS]);
  });

  it('add, list, deliveries and remove, in words and as JSON', async () => {
    const added = await cli('webhooks', 'add', receiverUrl, '--events', 'match.completed,bot.failed', '--json');
    expect(added.code, added.stderr).toBe(0);
    const hook = WebhookSchema.parse(JSON.parse(added.stdout));
    expect(hook.events).toEqual(['match.completed', 'bot.failed']);

    const list = await cli('webhooks', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe(`${hook.id}  match.completed,bot.failed  ${receiverUrl}\n`);

    const none = await cli('webhooks', 'deliveries', hook.id);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('no deliveries yet');

    server.webhooks.sink({ type: 'bot.failed', ownerId, botId: 'b_one', matchId: 'm_one', data: { botName: 'one' } });
    for (let i = 0; i < 500 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await server.webhooks.settled();
    const words = await cli('webhooks', 'deliveries', hook.id);
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toMatch(/^\S+ {2}bot\.failed {2}delivered {2}1 attempt {2}HTTP 204 {2}msg_\S+\n$/);
    const json = await cli('webhooks', 'deliveries', hook.id, '--json');
    const [d] = WebhookDeliveryListSchema.parse(JSON.parse(json.stdout)).deliveries;
    expect(JSON.parse(d.payload)).toMatchObject({ type: 'bot.failed', data: { botId: 'b_one', matchId: 'm_one' } });

    const removed = await cli('webhooks', 'remove', hook.id);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(`removed webhook ${hook.id}`);
    expect((await cli('webhooks', 'list', '--json')).stdout).toBe('{"webhooks":[]}\n');
  });

  it("an unknown event is a usage error (exit 2) naming the events; an unknown webhook is exit 1 with the server's words", async () => {
    const bad = await cli('webhooks', 'add', receiverUrl, '--events', 'match.started');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown event "match.started"; events are match.completed, bot.qualified');
    const unknown = await cli('webhooks', 'deliveries', 'wh_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no webhook wh_nope');
    expect((await cli('webhooks', 'list', '--json')).stdout).toBe('{"webhooks":[]}\n');
  });
});
