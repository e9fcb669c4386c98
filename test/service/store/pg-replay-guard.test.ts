// The replay check on PostgreSQL: a signature seen by one API process (or
// before a restart) is a replay for every other; of concurrent checks exactly
// one is first; rows go once their time is up.
import pg from 'pg';
import { expect, it } from 'vitest';
import { replayKey } from '../../../src/service/http/replay-cache';
import { openPgStore } from '../../../src/service/store/pg-store';
import { PgReplayGuard } from '../../../src/service/store/pg-replay-guard';
import { usePostgres } from '../../support/use-postgres';

const cluster = usePostgres();
const WINDOW = 300_000;

it('shared by processes and restarts; one first among concurrent checks; expired rows swept', async () => {
  const url = await cluster().createDatabase();
  const a = await openPgStore(url);
  const b = await openPgStore(url);
  const ga = new PgReplayGuard(a.db, WINDOW);
  const gb = new PgReplayGuard(b.db, WINDOW);
  try {
    const now = 1_900_000_000_000;
    const sig = replayKey(Buffer.alloc(64, 9).toString('base64'));
    expect(await ga.check(sig, now, now)).toBe('first');
    expect(await gb.check(sig, now, now + 1000)).toBe('replay');
    expect(await ga.check(sig, now, now + 2000)).toBe('replay');
    // A restart: a new guard on the same database still knows it.
    const again = new PgReplayGuard(a.db, WINDOW);
    expect(await again.check(sig, now, now + 3000)).toBe('replay');
    again.close();
    // Keys of any bytes (replayKey's latin1 text, NUL included) are kept apart.
    const other = replayKey(Buffer.concat([Buffer.alloc(1, 0), Buffer.alloc(63, 9)]).toString('base64'));
    expect(await gb.check(other, now, now)).toBe('first');
    // Concurrent checks of one new signature from both processes: exactly one first.
    const fresh = replayKey(Buffer.alloc(64, 3).toString('base64'));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? ga : gb).check(fresh, now, now)));
    expect(results.filter((r) => r === 'first')).toHaveLength(1);
    // Past the window the rows go.
    const later = now + WINDOW + 1;
    expect(await ga.sweep(now)).toBe(0);
    expect(await ga.sweep(later)).toBe(3);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    expect((await c.query('SELECT count(*)::int AS n FROM arena_replay')).rows[0].n).toBe(0);
    await c.end();
  } finally {
    ga.close();
    gb.close();
    await a.close();
    await b.close();
  }
});
