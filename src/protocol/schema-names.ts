// The names of the published shapes, apart from their schemas, so that
// listing them (`arena schema --help`) does not load zod and every schema.
export const PUBLISHED_SCHEMA_NAMES = [
  'DecisionRequest',
  'DecisionResponse',
  'PioneersView',
  'SetupAction',
  'TurnAction',
  'DiscardAction',
  'BanditAction',
  'TradeResponse',
  'Match',
  'MatchRecord',
  'MatchEvent',
  'PublicMatchEvent',
] as const;

export type PublishedSchemaName = (typeof PUBLISHED_SCHEMA_NAMES)[number];
