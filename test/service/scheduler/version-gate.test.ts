// The gate every connect of a match runs through refuses a bot's old URL once
// a new version has moved it, and passes everything else on to the address
// check it wraps. A real file store; no connection is made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openFileStore, type FileStore } from '../../../src/service/store/file-store';
import { versionGate } from '../../../src/service/scheduler/version-gate';

let store: FileStore | null = null;
let dir = '';
afterEach(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('refuses the old URL after a URL change, passes the new one and unknown ones to the wrapped gate', async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-vgate-'));
  store = await openFileStore(join(dir, 'data'));
  const owner = await store.createUser({ email: 'v@example.com' });
  const bot = await store.addBot({ ownerId: owner.id, name: 'v', game: 'pioneers', url: 'wss://old.example/' });
  const checked: string[] = [];
  const gate = versionGate(store, [bot], async (url) => {
    checked.push(url);
    return { address: '192.0.2.1', family: 4 };
  });
  expect(await gate('wss://old.example/')).toEqual({ address: '192.0.2.1', family: 4 });
  // A new version at the same URL keeps it: the same URL is still the bot's.
  await store.startBotVersion(bot.id, { qualify: false });
  expect(await gate('wss://old.example/')).toBeDefined();
  await store.startBotVersion(bot.id, { url: 'wss://new.example/', qualify: false });
  const err = await gate('wss://old.example/').then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(err?.message).toMatch(/moved to a new URL/);
  expect(err?.message).not.toContain('old.example');
  expect(checked).toEqual(['wss://old.example/', 'wss://old.example/']);
  expect(await gate('wss://elsewhere.example/')).toBeDefined();
  expect(checked).toEqual(['wss://old.example/', 'wss://old.example/', 'wss://elsewhere.example/']);
  // Without a wrapped gate (dev tests), a URL still the bot's connects as before.
  expect(await versionGate(store, [{ id: bot.id, url: 'wss://new.example/' }])('wss://new.example/')).toBeUndefined();
});
