// Schema version 1: every record kind of the file store, one table each.
// Timestamps are kept as the ISO text the file store keeps (an export is then
// byte-for-byte the records imported) and cast where compared. Match records
// are JSON text, not jsonb: jsonb reorders keys, and a record must come back
// exactly as it was stored.
export default `
CREATE TABLE arena_platform_key (
  id integer PRIMARY KEY CHECK (id = 1),
  private_key_pem text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE arena_users (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  -- the e-mail trimmed and lower-cased by the application, so "case-insensitive" is JavaScript's and the database's locale has no say
  email_key text NOT NULL UNIQUE,
  created_at text NOT NULL
);
CREATE UNIQUE INDEX arena_users_handle ON arena_users (name) WHERE name <> '';

CREATE TABLE arena_keys (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES arena_users (id),
  name text NOT NULL,
  public_key text NOT NULL,
  scopes text NOT NULL,
  created_at text NOT NULL,
  last_used_at text,
  revoked_at text
);
CREATE INDEX arena_keys_user ON arena_keys (user_id, seq);
CREATE INDEX arena_keys_public_key ON arena_keys (public_key);

CREATE TABLE arena_bots (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES arena_users (id),
  name text NOT NULL,
  game text NOT NULL,
  url text NOT NULL,
  status text NOT NULL,
  created_at text NOT NULL,
  removed_at text
);
CREATE INDEX arena_bots_owner ON arena_bots (owner_id, seq);
CREATE INDEX arena_bots_pool ON arena_bots (game, seq) WHERE status = 'active' AND removed_at IS NULL;

CREATE TABLE arena_ratings (
  seq bigserial UNIQUE,
  game text NOT NULL,
  bot_id text NOT NULL,
  mu double precision NOT NULL,
  sigma double precision NOT NULL,
  games_played integer NOT NULL,
  PRIMARY KEY (game, bot_id)
);

CREATE TABLE arena_sessions (
  seq bigserial UNIQUE,
  token_hash text PRIMARY KEY,
  user_id text NOT NULL,
  created_at text NOT NULL,
  expires_at text NOT NULL
);

CREATE TABLE arena_sign_in_tokens (
  seq bigserial UNIQUE,
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  created_at text NOT NULL,
  expires_at text NOT NULL,
  used_at text
);
CREATE INDEX arena_sign_in_tokens_email ON arena_sign_in_tokens (email);

CREATE TABLE arena_matches (
  -- first-stored order: "newest first" and the cursors
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  game text NOT NULL,
  status text NOT NULL,
  bot_ids text[] NOT NULL,
  summary text NOT NULL,
  record text NOT NULL,
  -- the seats' after-values written with a completion (the file store's envelope keeps them too)
  ratings text
);
CREATE INDEX arena_matches_bots ON arena_matches USING gin (bot_ids);
CREATE INDEX arena_matches_status ON arena_matches (status, seq);

-- Signatures seen inside the signed-request window, shared by every API process (pg-replay-guard.ts).
CREATE TABLE arena_replay (
  key bytea PRIMARY KEY,
  expires_at bigint NOT NULL
);
CREATE INDEX arena_replay_expiry ON arena_replay (expires_at);
`;
