// Webhooks: URLs of the owner's that the server tells of events about their
// bots. Add one (URL and events), see each with its last deliveries (status,
// attempts, the receiver's answer), remove one after a confirmation.
import { useState, type FormEvent } from 'react';
import type { Webhook, WebhookEvent } from '../../protocol/index';
import { addWebhook, errorText, listWebhookDeliveries, listWebhooks, removeWebhook } from '../api';
import { CodeChoices } from '../components/code-choices';
import { PageTitle } from '../components/page-title';
import { SignedIn } from '../components/signed-in';
import { formatTime } from '../lib/format';
import { useData } from '../lib/use-data';

const EVENT_TEXT: Array<[WebhookEvent, string]> = [
  ['match.completed', 'a match one of your bots played ended'],
  ['bot.struck_out', 'a bot resigned on strikes'],
  ['bot.unreachable', 'a bot could not be reached when its match began'],
  ['bot.qualified', 'a bot passed qualification'],
  ['bot.failed', 'a bot failed qualification'],
];

export function WebhooksPage() {
  return <SignedIn title="Webhooks">{() => <Webhooks />}</SignedIn>;
}

function Webhooks() {
  const hooks = useData((s) => listWebhooks(s), []);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['match.completed']);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await addWebhook({ url: url.trim(), events: EVENT_TEXT.map(([ev]) => ev).filter((ev) => events.includes(ev)) });
      setUrl('');
      hooks.reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p>
        The server POSTs each event to your URL in the Standard Webhooks format, signed (<code>v1a</code>, Ed25519) with
        the key of <a href="/.well-known/svc.json">/.well-known/svc.json</a>. A delivery without a 2xx answer is retried
        for a day.
      </p>
      <section className="card" aria-labelledby="add-h">
        <h2 id="add-h">Add a webhook</h2>
        <form onSubmit={submit} noValidate>
          <label htmlFor="hook-url">URL</label>
          <input
            id="hook-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            maxLength={2048}
            placeholder="https://you.example/arena"
            autoComplete="off"
            spellCheck={false}
          />
          <CodeChoices legend="Events" options={EVENT_TEXT} chosen={events} setChosen={setEvents} />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              Add webhook
            </button>
          </div>
        </form>
      </section>
      <section aria-labelledby="hooks-h">
        <h2 id="hooks-h">Your webhooks</h2>
        {hooks.error && (
          <p className="error" role="alert">
            {hooks.error}
          </p>
        )}
        {hooks.data && hooks.data.webhooks.length === 0 && <p className="muted">No webhooks yet.</p>}
        {hooks.data?.webhooks.map((h) => (
          <HookCard key={h.id} hook={h} onChange={hooks.reload} />
        ))}
      </section>
    </>
  );
}

function HookCard({ hook, onChange }: { hook: Webhook; onChange: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await removeWebhook(hook.id);
      onChange();
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };
  return (
    <article className="card" data-webhook={hook.id}>
      <h3 className="mono">{hook.url}</h3>
      <p>
        {hook.events.map((e) => (
          <code key={e}>{e} </code>
        ))}
        <span className="muted">
          {' '}
          · {hook.id} · added {formatTime(hook.createdAt)}
        </span>
      </p>
      {!confirming && (
        <button
          type="button"
          className="danger"
          onClick={() => setConfirming(true)}
          aria-label={`Remove webhook ${hook.url}`}
        >
          Remove
        </button>
      )}
      {confirming && (
        <div role="alertdialog" aria-labelledby={`rm-${hook.id}`}>
          <p id={`rm-${hook.id}`}>Remove this webhook? Nothing more is sent to it, pending retries included.</p>
          <div className="row">
            <button type="button" className="danger" disabled={busy} onClick={() => void remove()} autoFocus>
              Yes, remove
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <Deliveries id={hook.id} />
    </article>
  );
}

function Deliveries({ id }: { id: string }) {
  const { data, error } = useData((s) => listWebhookDeliveries(id, s), [id], 15_000);
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!data) return null;
  if (data.deliveries.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="table-wrap">
      <table data-testid="deliveries">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Answer</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {data.deliveries.map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.type}</code>
              </td>
              <td>
                {d.status}
                {d.nextAttemptAt ? ` (next ${formatTime(d.nextAttemptAt)})` : ''}
              </td>
              <td>{d.attempts}</td>
              <td>
                {d.responseStatus !== null ? `HTTP ${d.responseStatus}` : ''}
                {d.error && d.responseStatus === null ? d.error : ''}
              </td>
              <td>{formatTime(d.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
