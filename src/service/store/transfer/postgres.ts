// Records to and from a Postgres store: read in one REPEATABLE READ
// transaction (one moment of a live database, without stopping its
// servers), loaded in one transaction into an empty database.
import type { Db, Sql } from '../pg/db';
import {
  BOT_COLS,
  botOf,
  botRow,
  CHALLENGE_COLS,
  challengeOf,
  KEY_COLS,
  keyOf,
  RATING_COLS,
  ratingOf,
  SESSION_COLS,
  sessionOf,
  TOKEN_COLS,
  tokenOf,
  USER_COLS,
  userOf,
} from '../pg/rows';
import { insertOwnerMatchData } from '../pg/owner-data';
import { challengeParams } from '../pg/challenges';
import type { ArenaRecords } from './records';

export async function readPostgres(db: Db): Promise<ArenaRecords> {
  return db.tx(async (sql) => {
    await sql('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const rows = async (text: string) => (await sql(text)).rows;
    const matches = (await rows('SELECT record, ratings FROM arena_matches ORDER BY seq')).map((m) => ({
      match: JSON.parse(m.record),
      ratings: m.ratings === null ? null : JSON.parse(m.ratings),
    }));
    const key = await rows('SELECT private_key_pem FROM arena_platform_key WHERE id = 1');
    const ownerData = (await rows('SELECT match_id, bot_id, data FROM arena_owner_match_data ORDER BY seq')).map(
      (o) => ({
        matchId: o.match_id as string,
        botId: o.bot_id as string,
        data: JSON.parse(o.data),
      }),
    );
    return {
      users: (await rows(`SELECT ${USER_COLS} FROM arena_users ORDER BY seq`)).map(userOf),
      keys: (await rows(`SELECT ${KEY_COLS} FROM arena_keys ORDER BY seq`)).map(keyOf),
      bots: (await rows(`SELECT ${BOT_COLS} FROM arena_bots ORDER BY seq`)).map(botOf),
      ratings: (await rows(`SELECT ${RATING_COLS} FROM arena_ratings ORDER BY seq`)).map(ratingOf),
      sessions: (await rows(`SELECT ${SESSION_COLS} FROM arena_sessions ORDER BY seq`)).map(sessionOf),
      signInTokens: (await rows(`SELECT ${TOKEN_COLS} FROM arena_sign_in_tokens ORDER BY seq`)).map(tokenOf),
      matches,
      ownerData,
      challenges: (await rows(`SELECT ${CHALLENGE_COLS} FROM arena_challenges ORDER BY seq`)).map(challengeOf),

      webhooks: (await rows('SELECT data FROM arena_webhooks ORDER BY seq')).map((w) => JSON.parse(w.data)),
      webhookDeliveries: (await rows('SELECT data FROM arena_webhook_deliveries ORDER BY seq')).map((d) =>
        JSON.parse(d.data),
      ),
      platformKeyPem: key[0]?.private_key_pem ?? null,
    };
  });
}

export class DatabaseNotEmpty extends Error {
  constructor(target: string, what: string) {
    super(
      `the database at ${target} already holds ${what}; import only into an empty database (export it first if it matters)`,
    );
    this.name = 'DatabaseNotEmpty';
  }
}

const TABLES = [
  'arena_users',
  'arena_keys',
  'arena_bots',
  'arena_ratings',
  'arena_sessions',
  'arena_sign_in_tokens',
  'arena_matches',
  'arena_owner_match_data',
  'arena_bot_strikes',
  'arena_challenges',
  'arena_webhooks',
  'arena_webhook_deliveries',
];

/** Loads the records into an empty, migrated database, all or nothing. */
export async function loadPostgres(db: Db, r: ArenaRecords): Promise<void> {
  await db.tx(async (sql) => {
    // Nothing else may write while the import checks and fills the tables.
    await sql(`LOCK TABLE ${TABLES.join(', ')} IN EXCLUSIVE MODE`);
    for (const t of TABLES) {
      if ((await sql(`SELECT 1 FROM ${t} LIMIT 1`)).rows[0]) throw new DatabaseNotEmpty(db.target, `rows in ${t}`);
    }
    const each = async <T>(list: T[], text: string, params: (x: T) => unknown[]) => {
      for (const x of list) await sql(text, params(x));
    };
    await each(
      r.users,
      'INSERT INTO arena_users (id, name, email, email_key, created_at) VALUES ($1, $2, $3, $4, $5)',
      (u) => [u.id, u.name, u.email, u.email.trim().toLowerCase(), u.createdAt],
    );
    await each(r.keys, `INSERT INTO arena_keys (${KEY_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, (k) => [
      k.id,
      k.name,
      k.publicKey,
      JSON.stringify(k.scopes),
      k.createdAt,
      k.lastUsedAt,
      k.revokedAt,
      k.userId,
    ]);
    await each(
      r.bots,
      `INSERT INTO arena_bots (${BOT_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      botRow,
    );
    await each(r.ratings, `INSERT INTO arena_ratings (${RATING_COLS}) VALUES ($1, $2, $3, $4, $5)`, (x) => [
      x.botId,
      x.game,
      x.mu,
      x.sigma,
      x.gamesPlayed,
    ]);
    await each(r.sessions, `INSERT INTO arena_sessions (${SESSION_COLS}) VALUES ($1, $2, $3, $4)`, (s) => [
      s.tokenHash,
      s.userId,
      s.createdAt,
      s.expiresAt,
    ]);
    await each(r.signInTokens, `INSERT INTO arena_sign_in_tokens (${TOKEN_COLS}) VALUES ($1, $2, $3, $4, $5)`, (t) => [
      t.tokenHash,
      t.email,
      t.createdAt,
      t.expiresAt,
      t.usedAt,
    ]);
    await loadMatches(sql, r.matches);
    for (const { matchId, botId, data } of r.ownerData) await insertOwnerMatchData(sql, matchId, botId, data);
    await each(
      r.challenges,
      `INSERT INTO arena_challenges (${CHALLENGE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      challengeParams,
    );

    await each(r.webhooks, 'INSERT INTO arena_webhooks (id, owner_id, data) VALUES ($1, $2, $3)', (w) => [
      w.id,
      w.ownerId,
      JSON.stringify(w),
    ]);
    await each(
      r.webhookDeliveries,
      'INSERT INTO arena_webhook_deliveries (id, webhook_id, status, data) VALUES ($1, $2, $3, $4)',
      (d) => [d.id, d.webhookId, d.status, JSON.stringify(d)],
    );
    if (r.platformKeyPem) {
      await sql(
        `INSERT INTO arena_platform_key (id, private_key_pem) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET private_key_pem = EXCLUDED.private_key_pem`,
        [r.platformKeyPem],
      );
    }
  });
}

async function loadMatches(sql: Sql, matches: ArenaRecords['matches']): Promise<void> {
  const { summaryOf } = await import('../match-index');
  for (const { match, ratings } of matches) {
    await sql(
      'INSERT INTO arena_matches (id, game, status, bot_ids, summary, record, ratings) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        match.id,
        match.game,
        match.status,
        match.players.map((p) => p.botId),
        JSON.stringify(summaryOf(match)),
        JSON.stringify(match),
        ratings ? JSON.stringify(ratings) : null,
      ],
    );
  }
}
