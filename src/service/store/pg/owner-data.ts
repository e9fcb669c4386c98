// The owners' private match data on PostgreSQL (sql/0002-owner-data.ts): the
// per-(match, bot) record and the bots' strike logs, written in one transaction.
import type { BotStrike, BotStrikePage } from '../../../protocol';
import { isSafeId } from '../ids';
import { InvalidCursor, StoreNotFound, type OwnerMatchData, type StrikeQuery } from '../types';
import type { Db, Sql } from './db';

export async function putOwnerMatchData(db: Db, matchId: string, botId: string, data: OwnerMatchData): Promise<void> {
  await db.tx(async (sql) => {
    const m = await sql('SELECT bot_ids FROM arena_matches WHERE id = $1', [String(matchId)]);
    if (m.rowCount === 0) throw new StoreNotFound('match', String(matchId));
    if (!(m.rows[0].bot_ids as string[]).includes(botId))
      throw new TypeError(`bot ${botId} is not seated in ${matchId}`);
    await insertOwnerMatchData(sql, matchId, botId, data);
  });
}

/**
 * The record and its strike lines (inside a transaction); first write wins: a repeat (a retry) adds no strikes twice.
 */
export async function insertOwnerMatchData(
  sql: Sql,
  matchId: string,
  botId: string,
  data: OwnerMatchData,
): Promise<void> {
  const r = await sql(
    'INSERT INTO arena_owner_match_data (match_id, bot_id, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [matchId, botId, JSON.stringify(data)],
  );
  if (r.rowCount === 0 || data.strikes.length === 0) return;
  const strikes = data.strikes.map((s) => JSON.stringify({ ...s, matchId, at: data.endedAt } satisfies BotStrike));
  await sql(
    'INSERT INTO arena_bot_strikes (bot_id, match_id, strike) SELECT $1, $2, s FROM unnest($3::text[]) WITH ORDINALITY AS t(s, n) ORDER BY n',
    [botId, matchId, strikes],
  );
}

export async function getOwnerMatchData(db: Db, matchId: string, botId: string): Promise<OwnerMatchData | null> {
  if (typeof matchId !== 'string' || typeof botId !== 'string' || !isSafeId(matchId) || !isSafeId(botId)) return null;
  const r = await db.query<{ data: string }>(
    'SELECT data FROM arena_owner_match_data WHERE match_id = $1 AND bot_id = $2',
    [matchId, botId],
  );
  return r.rowCount ? (JSON.parse(r.rows[0].data) as OwnerMatchData) : null;
}

export async function listBotStrikes(db: Db, botId: string, query: StrikeQuery): Promise<BotStrikePage> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 100)
    throw new RangeError(`limit must be 1..100, got ${query.limit}`);
  let before: string | null = null;
  if (query.cursor) {
    const m = /^q([0-9]{1,18})$/.exec(Buffer.from(query.cursor, 'base64url').toString('latin1'));
    if (!m) throw new InvalidCursor(query.cursor);
    before = m[1];
  }
  const r = await db.query<{ seq: string; strike: string }>(
    `SELECT seq::text AS seq, strike FROM arena_bot_strikes WHERE bot_id = $1 AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY seq DESC LIMIT $3`,
    [String(botId), before, query.limit + 1],
  );
  const rows = r.rows.slice(0, query.limit);
  const next = r.rows.length > query.limit ? Buffer.from(`q${rows[rows.length - 1].seq}`).toString('base64url') : null;
  return { strikes: rows.map((row) => JSON.parse(row.strike) as BotStrike), next };
}
