// The management API's bodies and records (spec sections 2 and 4, decisions
// file "Service API"). The service validates with these, the CLI types its
// responses with them, and openapi.json is generated from them.
import { z } from 'zod';
import { StrikeReasonSchema } from './common';
import { NAME_RULE_TEXT, nameProblem } from './names';

export const SCOPES = ['bots.read', 'bots.write', 'keys.read', 'keys.write', 'account.read', 'account.write'] as const;
export const ScopeSchema = z.enum(SCOPES).describe('An API key scope.');
export const DEFAULT_KEY_SCOPES = ['bots.read', 'bots.write'] as const;

/** Largest request body the management API takes (413 too_large over it; docs/decisions.md). */
export const MAX_BODY_BYTES = 64 * 1024;

export const HANDLE_PATTERN = /^[a-z0-9_]{2,32}$/;
// Handles are plain ASCII, so nameProblem has nothing to add; it runs anyway, so one rule holds for every stored name.
export const HandleSchema = z
  .string()
  .regex(HANDLE_PATTERN)
  .superRefine((name, ctx) => nameRule(name, ctx))
  .describe('Public handle: 2-32 of a-z, 0-9, _.');
export const GameSchema = z.literal('pioneers').describe('The only game.');
// active: seated in rated matches; paused: the owner took it out (whatever its qualification);
// qualifying: waits for, or plays, its unrated qualifier; failed: its qualifier failed (requalify to try again).
export const BotStatusSchema = z
  .enum(['active', 'paused', 'qualifying', 'failed'])
  .describe(
    'active: rated matchmaking seats it; paused: its owner took it out (pausing wins over the rest; resuming returns to what its qualification says); qualifying: it plays an unrated qualifier against built-in bots first; failed: that qualifier failed.',
  );

/** A strike of a qualifier, as its owner is shown it. */
export const QualificationStrikeSchema = z.strictObject({
  reason: StrikeReasonSchema,
  code: z.string().optional().describe("`illegal`: the engine's rejection code."),
  message: z.string().describe('What went wrong.'),
});

export const QualificationStateSchema = z
  .enum(['qualifying', 'passed', 'failed', 'skipped'])
  .describe(
    'qualifying: waiting for or playing its qualifier; passed; failed; skipped: let in unplayed (the server runs with --qualify off).',
  );

export const QualificationSchema = z
  .strictObject({
    state: QualificationStateSchema,
    version: z.number().int().min(1).describe('The version this qualification is for.'),
    matchId: z.string().nullable().describe('The qualifier match (null until it is played, and when skipped).'),
    strikes: z.array(QualificationStrikeSchema).describe("The bot's strikes in that match, in order."),
    resigned: z.boolean().describe('Whether the bot was resigned (too many strikes) in that match.'),
    reason: z.string().nullable().describe('Why it failed, in words (null unless failed).'),
    at: z.string().describe('When the state was last set.'),
  })
  .describe(
    "A bot's qualification: one unrated match against built-in bots before it is rated (at most 1 strike and no resignation to pass). For its owner only.",
  );

export const UserSchema = z
  .strictObject({
    id: z.string(),
    name: z.string().describe('Public handle; empty until one is picked.'),
    email: z.string(),
  })
  .describe('A user account.');

export const ApiKeyMetaSchema = z
  .strictObject({
    id: z.string().describe('The key id sent in x-svc-key.'),
    name: z.string().min(1).max(64),
    publicKey: z.string().describe('Ed25519 public key, base64 of the raw 32 bytes.'),
    scopes: z.array(ScopeSchema),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .describe('An API key: metadata only; no secret is stored.');

export const BotSchema = z
  .strictObject({
    id: z.string(),
    ownerId: z.string(),
    name: z.string(),
    game: GameSchema,
    url: z.string().describe('Only ever shown to the owner.'),
    status: BotStatusSchema,
    challengeable: z
      .boolean()
      .describe('Whether other accounts may challenge it to unrated matches (POST /challenges); default true.'),
    createdAt: z.string(),
    version: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'The version playing now: 1 at registration, one more at each URL change or new version (absent from older servers).',
      ),
    qualification: QualificationSchema.nullable()
      .optional()
      .describe(
        'Its latest qualification; null for a bot registered before qualification existed or under --qualify off.',
      ),
  })
  .describe('A registered bot, as its owner sees it.');

/**
 * A name people see (bots on the leaderboard, keys in a list): 1 to `max`
 * characters and nameProblem's rule (names.ts), the one every stored name
 * follows. The two patterns are that rule's part a JSON Schema can say: no
 * control characters, which would break a table's lines or drive the
 * terminal of whoever looks (tabs, line breaks, escapes); no text-direction
 * overrides and isolates (U+202A-202E, U+2066-2069), which would show the
 * rest of a leaderboard row, or the name itself, reordered.
 */
function displayName(max: number) {
  return (
    z
      .string()
      .min(1)
      .max(max)
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, {
        error: 'must not contain control characters (tabs, line breaks, escape sequences)',
      })
      .regex(/^[^\u202a-\u202e\u2066-\u2069]*$/, {
        error: 'must not contain text-direction overrides (U+202A-202E, U+2066-2069)',
      })
      .superRefine(nameRule)
  );
}

/** The rest of nameProblem, as a zod check: what the patterns above already reported is not said twice. */
function nameRule(name: string, ctx: z.RefinementCtx): void {
  const problem = nameProblem(name);
  if (problem && !/^must not contain (control characters|text-direction overrides)/.test(problem))
    ctx.addIssue({ code: 'custom', message: problem });
}

export const BOT_NAME_MAX = 64;
export const BotNameSchema = displayName(BOT_NAME_MAX).describe(`Bot name, 1-64 characters: ${NAME_RULE_TEXT}.`);
export const BotUrlSchema = z.string().min(1).max(2048).describe('Where the bot listens: https in production.');

// Request bodies.
export const HandleBodySchema = z.strictObject({ handle: HandleSchema });
export const KeyNameSchema = displayName(64).describe(`Key name, 1-64 characters: ${NAME_RULE_TEXT}.`);
export const KeyCreateBodySchema = z.strictObject({
  name: KeyNameSchema,
  publicKey: z
    .string()
    .min(1)
    .max(4096)
    .describe('An OpenSSH ssh-ed25519 line, a PEM PUBLIC KEY block, or base64 of the raw 32 bytes.'),
  scopes: z.array(ScopeSchema).min(1).optional().describe('Default: bots.read and bots.write.'),
});
export const BotCreateBodySchema = z.strictObject({ name: BotNameSchema, game: GameSchema, url: BotUrlSchema });
export const BotUpdateBodySchema = z
  .strictObject({
    name: BotNameSchema.optional(),
    url: BotUrlSchema.optional(),
    challengeable: z
      .boolean()
      .optional()
      .describe('false: nobody may challenge the bot (pending challenges naming it are refused at the next tick).'),
    newVersion: z
      .literal(true)
      .optional()
      .describe('Start a new version at the same URL (new code deployed there); a changed url starts one anyway.'),
  })
  .refine(
    (b) => b.name !== undefined || b.url !== undefined || b.challengeable !== undefined || b.newVersion !== undefined,
    { message: 'give name, url, challengeable, newVersion or a mix' },
  );
export const EmailSignInBodySchema = z.strictObject({ email: z.email().max(254) });

// Envelopes.
export const KeyListSchema = z.strictObject({ keys: z.array(ApiKeyMetaSchema) });
export const BotListSchema = z.strictObject({ bots: z.array(BotSchema) });
/** What one `arena serve` process does (serve --role): everything, or one part of a cluster on a database. */
export const SERVE_ROLES = ['all', 'api', 'scheduler', 'worker'] as const;
export type ServeRole = (typeof SERVE_ROLES)[number];

export const HealthSchema = z.strictObject({
  status: z.literal('ok'),
  role: z
    .enum(SERVE_ROLES)
    .describe('What this process does (serve --role): all, or api, scheduler or worker in a cluster on a database.'),
  db: z
    .enum(['ok', 'unavailable'])
    .optional()
    .describe(
      'Only when the arena runs on a database: whether this process reaches it now. The service stays up (status ok) while it is away; what needs it answers 503.',
    ),
});
export const PlatformKeyDocSchema = z.strictObject({
  publicKey: z.string().describe('base64 of the raw 32-byte Ed25519 platform key.'),
});

export const ERROR_CODES = [
  'invalid_request',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'too_large',
  'url_rejected',
  'deploy_check_failed',
  'rate_limited',
  'internal',
  'unavailable',
] as const;
export const ErrorCodeSchema = z.enum(ERROR_CODES);
export const ErrorBodySchema = z
  .strictObject({ error: z.strictObject({ code: ErrorCodeSchema, message: z.string() }) })
  .describe('Every error response.');

// Head-to-head (GET /bots/{id}/opponents): public, like the leaderboard's columns; never a bot's URL.
export const OPPONENT_SORTS = ['games', 'above', 'name'] as const;
export const OpponentRowSchema = z
  .strictObject({
    botId: z.string(),
    name: z.string().describe("The opponent's current name."),
    owner: z.string().describe("Its owner's public handle (empty until one is picked)."),
    games: z
      .number()
      .int()
      .min(1)
      .describe('Completed matches (rated or unrated) both played; aborted ones do not count.'),
    above: z
      .number()
      .int()
      .min(0)
      .describe('Of those, how many this bot finished strictly above the opponent (a tie counts for neither).'),
    aboveShare: z.number().min(0).max(1).describe('above / games.'),
    meanPlacement: z.number().describe("This bot's mean placement in those games (1 = first)."),
    opponentMeanPlacement: z.number().describe("The opponent's mean placement in those games."),
  })
  .describe('One opponent a bot met: its record against it.');
export const OpponentPageSchema = z.strictObject({
  botId: z.string(),
  opponents: z.array(OpponentRowSchema),
  next: z.string().nullable().describe('Pass as cursor for the next page; null on the last.'),
});

// Versions (GET /bots/{id}/versions): the owner's view of each version's record.
export const BotVersionSchema = z
  .strictObject({
    version: z.number().int().min(1),
    startedAt: z.string(),
    endedAt: z.string().nullable().describe('When the next version started; null for the one playing now.'),
    games: z.number().int().min(0).describe('Rated games it played.'),
    rating: z
      .number()
      .nullable()
      .describe(
        'Shown rating (mu - 3*sigma, 1 decimal) at its end, or now for the current version; null before any rated game.',
      ),
    mu: z.number().nullable(),
    sigma: z.number().nullable(),
  })
  .describe('One version of a bot.');
export const BotVersionListSchema = z.strictObject({
  botId: z.string(),
  versions: z.array(BotVersionSchema).describe('Oldest first.'),
});

export type BotVersion = z.infer<typeof BotVersionSchema>;
export type BotVersionList = z.infer<typeof BotVersionListSchema>;
export type Qualification = z.infer<typeof QualificationSchema>;
export type QualificationStrike = z.infer<typeof QualificationStrikeSchema>;
export type OpponentRow = z.infer<typeof OpponentRowSchema>;
export type OpponentPage = z.infer<typeof OpponentPageSchema>;
export type Scope = z.infer<typeof ScopeSchema>;
export type User = z.infer<typeof UserSchema>;
export type ApiKeyMeta = z.infer<typeof ApiKeyMetaSchema>;
export type Bot = z.infer<typeof BotSchema>;
export type BotStatus = z.infer<typeof BotStatusSchema>;
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
