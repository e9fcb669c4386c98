// timedStore: every write timed for /metrics; reads reach the store itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/service/ops/metrics';
import { timedStore } from '../../../src/service/ops/timed-store';
import { openFileStore, type FileStore } from '../../../src/service/store/index';

describe('timedStore', () => {
  let dir = '';
  let raw: FileStore | undefined;
  afterEach(async () => {
    await raw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('times writes, answers reads from the store, and follows a method replaced after wrapping', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-timed-'));
    raw = await openFileStore(join(dir, 'data'), { init: true });
    const metrics = createMetrics();
    const store = timedStore(raw, metrics);
    const user = await store.createUser({ email: 'a@example.com', name: 'a' });
    expect(await metrics.registry.getSingleMetricAsString('arena_store_write_seconds')).toMatch(
      /arena_store_write_seconds_count\{op="createUser"\} 1/,
    );
    expect(await store.getUser(user.id)).toEqual(user);
    // The same method each time (bound once), and a replacement is seen at once.
    expect(store.getUser).toBe(store.getUser);
    const original = raw.getUser;
    raw.getUser = async () => null;
    expect(await store.getUser(user.id)).toBeNull();
    raw.getUser = original;
    expect(await store.getUser(user.id)).toEqual(user);
    expect(Object.getPrototypeOf(store)).toBe(Object.getPrototypeOf(raw));
  });
});
