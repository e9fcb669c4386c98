// An arena's whole content as plain records, in each kind's stored order:
// what `arena admin export` and `import` move between stores. The data
// directory's format (the file store's) is the interchange and backup format.
import type {
  BotRecord,
  ChallengeRecord,
  KeyRecord,
  OwnerMatchData,
  RatingRecord,
  SessionRecord,
  SignInTokenRecord,
  StoredMatch,
  UserRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '../types';

export interface ArenaRecords {
  users: UserRecord[];
  keys: KeyRecord[];
  bots: BotRecord[];
  ratings: RatingRecord[];
  sessions: SessionRecord[];
  signInTokens: SignInTokenRecord[];
  /** Oldest first (first-stored order); a completed match carries its seats' after-ratings. */
  matches: { match: StoredMatch; ratings: RatingRecord[] | null }[];
  /**
   * The owners' private match data, in the order it was kept (each bot's strike log in order). Not counted in
   * RecordCounts.
   */
  ownerData: { matchId: string; botId: string; data: OwnerMatchData }[];
  /** Challenges, oldest first. Not counted in RecordCounts. */
  challenges: ChallengeRecord[];

  /**
   * Webhooks, oldest first, and their kept deliveries, oldest first (pending ones resume after an import). Not counted.
   */
  webhooks: WebhookRecord[];
  webhookDeliveries: WebhookDeliveryRecord[];
  /** PKCS#8 PEM of the platform key, when the source has one. */
  platformKeyPem: string | null;
}

export type RecordCounts = Record<
  'users' | 'keys' | 'bots' | 'ratings' | 'sessions' | 'signInTokens' | 'matches',
  number
>;

export function countsOf(r: ArenaRecords): RecordCounts {
  return {
    users: r.users.length,
    keys: r.keys.length,
    bots: r.bots.length,
    ratings: r.ratings.length,
    sessions: r.sessions.length,
    signInTokens: r.signInTokens.length,
    matches: r.matches.length,
  };
}

/** "3 users, 4 keys, ..." for the command's report. */
export function describeCounts(c: RecordCounts): string {
  return `${c.users} users, ${c.keys} keys, ${c.bots} bots, ${c.ratings} ratings, ${c.matches} matches, ${c.sessions} sessions, ${c.signInTokens} sign-in links`;
}
