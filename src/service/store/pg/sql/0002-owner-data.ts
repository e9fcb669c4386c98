// Schema version 2: the owners' private match data (Store.putOwnerMatchData),
// apart from the public match rows: one row per finished match and seated bot
// (its notes and strikes as JSON text, like match records), and one row per
// strike for the bot's strike log, whose seq orders "newest first" and the cursors.
export default `
CREATE TABLE arena_owner_match_data (
  -- the order records were kept: an export keeps each bot's strike log in order
  seq bigserial UNIQUE,
  match_id text NOT NULL REFERENCES arena_matches (id),
  bot_id text NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (match_id, bot_id)
);

CREATE TABLE arena_bot_strikes (
  seq bigserial PRIMARY KEY,
  bot_id text NOT NULL,
  match_id text NOT NULL,
  strike text NOT NULL
);
CREATE INDEX arena_bot_strikes_bot ON arena_bot_strikes (bot_id, seq);
`;
