// The Postgres store's version and qualification steps: each one transaction
// that locks the bot's row, applies the shared rule (store/bot-versions.ts)
// and writes the row back (and, for a new version, the widened rating).
import { currentVersion, finishedQualification, nextVersion, pendingQualification, statusAfter } from '../bot-versions';
import { StoreConflict, StoreNotFound, type BotRecord, type QualificationOutcome } from '../types';
import type { Db, Sql } from './db';
import { BOT_COLS, botOf, RATING_COLS, ratingOf } from './rows';

async function lockedBot(sql: Sql, id: string): Promise<BotRecord | null> {
  const r = await sql(`SELECT ${BOT_COLS} FROM arena_bots WHERE id = $1 FOR UPDATE`, [id]);
  return r.rows[0] ? botOf(r.rows[0]) : null;
}

async function writeBot(sql: Sql, b: BotRecord): Promise<void> {
  await sql(
    'UPDATE arena_bots SET url = $2, status = $3, version = $4, versions = $5, qualification = $6 WHERE id = $1',
    [
      b.id,
      b.url,
      b.status,
      b.version ?? 1,
      b.versions ? JSON.stringify(b.versions) : null,
      b.qualification ? JSON.stringify(b.qualification) : null,
    ],
  );
}

export function startBotVersion(
  db: Db,
  id: string,
  input: { url?: string; qualify: boolean },
  at: string,
): Promise<BotRecord> {
  return db.tx(async (sql) => {
    const bot = await lockedBot(sql, id);
    if (!bot || bot.removedAt) throw new StoreNotFound('bot', id);
    const rr = await sql(`SELECT ${RATING_COLS} FROM arena_ratings WHERE game = $1 AND bot_id = $2 FOR UPDATE`, [
      bot.game,
      id,
    ]);
    const next = nextVersion(bot, rr.rows[0] ? ratingOf(rr.rows[0]) : null, at);
    const qualification = input.qualify ? pendingQualification(next.version, at) : null;
    const updated: BotRecord = {
      ...bot,
      url: input.url ?? bot.url,
      version: next.version,
      versions: next.versions,
      qualification,
    };
    updated.status = statusAfter(bot, qualification);
    await writeBot(sql, updated);
    if (next.rating)
      await sql('UPDATE arena_ratings SET sigma = $3 WHERE game = $1 AND bot_id = $2', [
        bot.game,
        id,
        next.rating.sigma,
      ]);
    return updated;
  });
}

export function requalifyBot(db: Db, id: string, at: string): Promise<BotRecord> {
  return db.tx(async (sql) => {
    const bot = await lockedBot(sql, id);
    if (!bot || bot.removedAt) throw new StoreNotFound('bot', id);
    if (bot.qualification?.state === 'qualifying')
      throw new StoreConflict('qualifying', `bot ${id} is waiting for its qualifier already`);
    const qualification = pendingQualification(currentVersion(bot), at);
    const updated: BotRecord = { ...bot, qualification, status: statusAfter(bot, qualification) };
    await writeBot(sql, updated);
    return updated;
  });
}

export function finishQualification(
  db: Db,
  id: string,
  version: number,
  outcome: QualificationOutcome,
  at: string,
): Promise<BotRecord | null> {
  return db.tx(async (sql) => {
    const bot = await lockedBot(sql, id);
    if (!bot) throw new StoreNotFound('bot', id);
    const qualification = finishedQualification(bot, version, outcome, at);
    if (!qualification) return null;
    const updated: BotRecord = { ...bot, qualification, status: statusAfter(bot, qualification) };
    await writeBot(sql, updated);
    return updated;
  });
}
