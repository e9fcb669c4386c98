// A finished match's write outlives a short database outage: retried while
// the Postgres store is unavailable, it lands once the database is back.
import { expect, it } from 'vitest';
import { retryWhileUnavailable } from '../../../src/service/scheduler/store-retry';
import { openPgStore } from '../../../src/service/store/pg-store';
import { StoreConflict, StoreUnavailable } from '../../../src/service/store/types';
import { usePostgres } from '../../support/use-postgres';
import { completed, ratingsFor, runningMatch } from '../store/store-fixtures';

const cluster = usePostgres();

it('completeMatch retried through a database restart lands once, with its ratings', async () => {
  const store = await openPgStore(await cluster().createDatabase());
  try {
    const u = await store.createUser({ email: 'a@example.com' });
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await store.addBot({ ownerId: u.id, name: `b${i}`, game: 'pioneers', url: `wss://b${i}.example/` })).id,
      );
    const m = runningMatch(ids);
    await store.putMatch(m);
    const done = completed(m);
    cluster().stop('immediate');
    // Without retries the write fails at once, saying the store is unavailable.
    await expect(store.completeMatch(done, ratingsFor(done))).rejects.toBeInstanceOf(StoreUnavailable);
    let attempts = 0;
    const writing = retryWhileUnavailable(
      () => {
        attempts++;
        if (attempts === 2) cluster().start();
        return store.completeMatch(done, ratingsFor(done));
      },
      async () => null,
      [50, 50, 50, 50, 50],
    );
    await writing;
    // The first attempt met the database down, the second (the database started meanwhile) landed.
    expect(attempts).toBe(2);
    expect(await store.getMatch(m.id)).toEqual(done);
    expect(await store.getRating(ids[0], 'pioneers')).toEqual(ratingsFor(done)[0]);
  } finally {
    cluster().start();
    await store.close();
  }
});

it('a conflict after a lost answer counts as landed when the write is there; other errors and the last outage pass through', async () => {
  const store = await openPgStore(await cluster().createDatabase());
  try {
    const u = await store.createUser({ email: 'a@example.com' });
    const bot = await store.addBot({ ownerId: u.id, name: 'b', game: 'pioneers', url: 'wss://b.example/' });
    const m = runningMatch([bot.id]);
    await store.putMatch(m);
    const done = completed(m);
    await store.completeMatch(done, []);
    // First attempt "lost its answer" (unavailable), the retry conflicts: landed() says it is there.
    let n = 0;
    const got = await retryWhileUnavailable(
      async () => {
        if (n++ === 0) throw new StoreUnavailable('lost');
        await store.completeMatch(done, []);
        return 'written';
      },
      async () => ((await store.getMatch(m.id))?.status === 'completed' ? 'landed' : null),
      [1],
    );
    expect(got).toBe('landed');
    // A conflict with no outage before it is an error as ever.
    await expect(
      retryWhileUnavailable(
        () => store.completeMatch(done, []),
        async () => undefined,
        [1],
      ),
    ).rejects.toBeInstanceOf(StoreConflict);
    // Out of retries: the outage is the error.
    await expect(
      retryWhileUnavailable(
        () => Promise.reject(new StoreUnavailable('down')),
        async () => 'landed',
        [1, 1],
      ),
    ).rejects.toBeInstanceOf(StoreUnavailable);
  } finally {
    await store.close();
  }
});
