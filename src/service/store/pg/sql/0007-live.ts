// Schema version 7: live streams shared by every process on the database
// (src/service/live/pg-hub.ts). The process playing a match writes what its
// viewers may see, and nothing else: the header (seats and bot names, no
// URLs), each event's public form, and the newest public view it took.
// Rows are scratch: deleted a minute after the match ends (its record is then
// the stream's source) or when no write has come for hours (a dead player's).
export default `
CREATE TABLE arena_live_matches (
  match_id text PRIMARY KEY,
  header text NOT NULL,
  -- the newest event written (-1: none yet)
  last_seq integer NOT NULL DEFAULT -1,
  -- the newest public view written and the event it follows: viewers of other processes get events
  -- up to view_seq (a player under load takes a view for some flushes only), all of them once the match ended
  view text,
  view_seq integer NOT NULL DEFAULT -1,
  -- how the match ended (the live stream's end message), once it has
  final text,
  ended_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX arena_live_matches_ended ON arena_live_matches (ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX arena_live_matches_updated ON arena_live_matches (updated_at) WHERE ended_at IS NULL;

CREATE TABLE arena_live_events (
  match_id text NOT NULL REFERENCES arena_live_matches (match_id) ON DELETE CASCADE,
  seq integer NOT NULL,
  -- the public form (PublicMatchEvent) as JSON text
  event text NOT NULL,
  PRIMARY KEY (match_id, seq)
);
`;
