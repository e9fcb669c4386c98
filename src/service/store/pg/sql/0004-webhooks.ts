// Schema version 4: owners' webhooks and their deliveries (issue 29 item 5).
// Each record is kept whole as JSON text (like match records); the columns
// beside it are what queries select on. A webhook's deliveries go with it.
export default `
CREATE TABLE arena_webhooks (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES arena_users (id),
  data text NOT NULL
);
CREATE INDEX arena_webhooks_owner ON arena_webhooks (owner_id, seq);

CREATE TABLE arena_webhook_deliveries (
  seq bigserial UNIQUE,
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES arena_webhooks (id) ON DELETE CASCADE,
  status text NOT NULL,
  data text NOT NULL
);
CREATE INDEX arena_webhook_deliveries_hook ON arena_webhook_deliveries (webhook_id, seq);
CREATE INDEX arena_webhook_deliveries_pending ON arena_webhook_deliveries (seq) WHERE status = 'pending';
`;
