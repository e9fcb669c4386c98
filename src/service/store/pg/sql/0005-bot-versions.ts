// Schema version 5: bot versions and qualification (issue 29 items 1 and 2).
// Bots already stored keep status active: version 1, no qualification (null),
// and a null version list that reads as one version since their creation
// (store/bot-versions.ts versionsOf).
export default `
ALTER TABLE arena_bots ADD COLUMN version integer NOT NULL DEFAULT 1;
-- BotVersionRecord[] as JSON text, oldest first; null: one version since created_at
ALTER TABLE arena_bots ADD COLUMN versions text;
-- Qualification as JSON text; null: none (registered before it existed, or under --qualify off)
ALTER TABLE arena_bots ADD COLUMN qualification text;
CREATE INDEX arena_bots_qualifying ON arena_bots (game, seq) WHERE status = 'qualifying' AND removed_at IS NULL;
`;
