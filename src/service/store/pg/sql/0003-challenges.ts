// Schema version 3: challenges (Store.addChallenge). A bot's owner may refuse
// them (arena_bots.challengeable); each challenge is one row, its opponents a
// JSON array as text (like match records), seq its order of creation.
export default `
ALTER TABLE arena_bots ADD COLUMN challengeable boolean NOT NULL DEFAULT true;

CREATE TABLE arena_challenges (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES arena_users (id),
  bot_id text NOT NULL,
  opponents text NOT NULL,
  status text NOT NULL,
  match_id text,
  reason text,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  ended_at text
);
CREATE INDEX arena_challenges_owner ON arena_challenges (owner_id, seq);
CREATE INDEX arena_challenges_pending ON arena_challenges (seq) WHERE status = 'pending';
`;
