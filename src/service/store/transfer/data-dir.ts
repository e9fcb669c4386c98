// Records to and from a data directory in the file store's format:
// store.json and its journal (doc.ts, journal.ts), matches/index.log and one file per match
// (match-log.ts), and platform-key.pem.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PLATFORM_KEY_FILE } from '../../../config/platform-key';
import { makeDir } from '../../../fs/make-dir';
import { writeFileAtomic } from '../atomic-write';
import { DOC_FILE, emptyDoc, ratingKey, readDoc } from '../doc';
import { replayJournals } from '../journal';
import { openFileStore } from '../file-store';
import { MATCH_DIR } from '../match-files';
import { MatchLog } from '../match-log';
import { OwnerFiles, readAllPrivate } from '../owner-files';
import type { StoredMatch } from '../types';
import type { ArenaRecords } from './records';

/**
 * Reads a data directory whole. It opens it as the file store first (taking
 * its lock, so a directory a server is using is refused, and finishing what a
 * crash left half done), then reads the files.
 */
export async function readDataDir(dir: string): Promise<ArenaRecords> {
  const root = resolve(dir);
  if (!existsSync(join(root, DOC_FILE))) throw new Error(`${root} holds no arena store (no ${DOC_FILE})`);
  await (await openFileStore(root)).close();
  // store.json is a snapshot; the journal after it holds the later writes.
  const doc = (await readDoc(join(root, DOC_FILE))) ?? emptyDoc();
  await replayJournals(root, doc, false);
  const { log } = await MatchLog.open(root, doc.ratingsThrough);
  try {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = log.index.query({ limit: 100, cursor });
      ids.push(...page.entries.map((e) => e.id));
      cursor = page.next;
    } while (cursor);
    ids.reverse();
    const matches: ArenaRecords['matches'] = [];
    for (const id of ids) {
      const env = await log.envelope(id);
      if (!env) throw new Error(`match ${id} is in the match log of ${root} but its file is missing`);
      matches.push({ match: env.match, ratings: env.ratings ?? null });
    }
    const ownerData = await readAllPrivate(join(root, MATCH_DIR));
    const keyFile = join(root, PLATFORM_KEY_FILE);
    return {
      users: Object.values(doc.users),
      keys: Object.values(doc.keys),
      bots: Object.values(doc.bots),
      ratings: Object.values(doc.ratings),
      sessions: Object.values(doc.sessions),
      signInTokens: Object.values(doc.signInTokens),
      matches,
      ownerData,
      // Oldest first, the order both stores list them in.
      challenges: Object.values(doc.challenges).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),

      webhooks: Object.values(doc.webhooks).sort(byCreated),
      webhookDeliveries: Object.values(doc.webhookDeliveries).sort(byCreated),
      platformKeyPem: existsSync(keyFile) ? await readFile(keyFile, 'utf8') : null,
    };
  } finally {
    await log.close();
  }
}

/** Oldest first; the sort is stable, so records of one millisecond keep their stored order. */
function byCreated(a: { createdAt: string }, b: { createdAt: string }): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

/** Writes the records as a new data directory; `dir` must be new or empty. */
export async function writeDataDir(dir: string, r: ArenaRecords): Promise<void> {
  const root = resolve(dir);
  if (existsSync(root) && (await readdir(root)).length > 0)
    throw new Error(`${root} is not empty; export into a new or empty directory`);
  await makeDir(root, 0o700);
  const doc = emptyDoc();
  for (const u of r.users) doc.users[u.id] = u;
  for (const k of r.keys) doc.keys[k.id] = k;
  for (const b of r.bots) doc.bots[b.id] = b;
  for (const x of r.ratings) doc.ratings[ratingKey(x.game, x.botId)] = x;
  for (const s of r.sessions) doc.sessions[s.tokenHash] = s;
  for (const t of r.signInTokens) doc.signInTokens[t.tokenHash] = t;
  for (const c of r.challenges) doc.challenges[c.id] = c;

  for (const w of r.webhooks) doc.webhooks[w.id] = w;
  for (const d of r.webhookDeliveries) doc.webhookDeliveries[d.id] = d;
  const { log } = await MatchLog.open(root, -1);
  try {
    for (const { match, ratings } of r.matches) {
      const { off } = await log.write(match as StoredMatch, ratings);
      // The document holds every completion's ratings already.
      if (match.status === 'completed') doc.ratingsThrough = off;
    }
  } finally {
    await log.close();
  }
  if (r.ownerData.length > 0) {
    const owner = new OwnerFiles(join(root, MATCH_DIR));
    try {
      await owner.ready();
      for (const { matchId, botId, data } of r.ownerData) await owner.put(matchId, botId, data);
    } finally {
      await owner.close();
    }
  }
  // A whole snapshot and no journal: what the file store reads at open.
  await writeFileAtomic(join(root, DOC_FILE), JSON.stringify(doc));
  if (r.platformKeyPem) await writeFile(join(root, PLATFORM_KEY_FILE), r.platformKeyPem, { mode: 0o600 });
}
