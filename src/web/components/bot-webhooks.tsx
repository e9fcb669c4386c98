// On a bot's page, for its owner only: the account's webhooks that hear of
// this bot's events (webhooks are per account, so every one applies), with a
// link to manage them. Asked only of a signed-in visitor; the server answers
// GET /bots/{id} only to the owner, and anyone else sees nothing of this.
import { api, listWebhooks } from '../api';
import type { Bot } from '../../protocol/index';
import { Link, paths } from '../router';
import { useData } from '../lib/use-data';

async function load(botId: string, signal: AbortSignal) {
  await api<Bot>('GET', `/bots/${encodeURIComponent(botId)}`, { signal });
  return listWebhooks(signal);
}

export function BotWebhooks({ botId }: { botId: string }) {
  const { data } = useData((signal) => load(botId, signal).catch(() => null), [botId]);
  if (!data) return null;
  return (
    <section aria-labelledby="webhooks-h" data-testid="bot-webhooks">
      <h2 id="webhooks-h">Webhooks</h2>
      {data.webhooks.length === 0 ? (
        <p className="muted">
          No webhook tells you of this bot's matches and failures yet. <Link href={paths.webhooks()}>Add one</Link>.
        </p>
      ) : (
        <>
          <ul>
            {data.webhooks.map((w) => (
              <li key={w.id}>
                <span className="mono">{w.url}</span>: {w.events.join(', ')}
              </li>
            ))}
          </ul>
          <p className="muted">
            Only you see this. <Link href={paths.webhooks()}>Manage webhooks and see their deliveries</Link>.
          </p>
        </>
      )}
    </section>
  );
}
