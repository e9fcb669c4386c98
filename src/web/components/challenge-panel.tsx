// Challenges on a bot's page, for a signed-in visitor: on another account's
// bot, a button to challenge it with one of their own active bots (one
// unrated match at the next tick both are idle); on their own bot, whether
// other accounts may challenge it. Each challenge's status is listed under
// it (GET /challenges). The server checks everything again: this only asks.
import { useState } from 'react';
import type { Bot, Challenge } from '../../protocol/index';
import { createChallenge, errorText, listBots, listChallenges, updateBot } from '../api';
import { useData } from '../lib/use-data';
import { Link, paths } from '../router';

interface Mine {
  bots: Bot[];
  challenges: Challenge[];
}

async function loadMine(signal: AbortSignal): Promise<Mine> {
  const [bots, challenges] = await Promise.all([listBots(signal), listChallenges(signal)]);
  return { bots: bots.bots, challenges: challenges.challenges };
}

export function ChallengePanel({ botId, name }: { botId: string; name: string }) {
  const { data, reload } = useData((signal) => loadMine(signal).catch(() => null), [botId], 10_000);
  const [pick, setPick] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  if (!data) return null;
  const own = data.bots.find((b) => b.id === botId);
  const act = async (fn: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    setSaid(null);
    try {
      await fn();
      setSaid(done);
      reload();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (own) {
    return (
      <section aria-labelledby="challenges-h">
        <h2 id="challenges-h">Challenges</h2>
        <p data-testid="challengeable">
          {own.challengeable
            ? 'Other accounts may challenge this bot to unrated matches.'
            : 'This bot refuses challenges from other accounts.'}{' '}
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(
                () => updateBot(botId, { challengeable: !own.challengeable }),
                own.challengeable ? 'Challenges turned off.' : 'Challenges turned on.',
              )
            }
          >
            {own.challengeable ? 'Refuse challenges' : 'Accept challenges'}
          </button>
        </p>
        {said && <p role="status">{said}</p>}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </section>
    );
  }
  const ready = data.bots.filter((b) => b.status === 'active');
  const chosen = pick || ready[0]?.id || '';
  const mine = data.challenges.filter((c) => c.opponents.includes(botId));
  return (
    <section aria-labelledby="challenges-h">
      <h2 id="challenges-h">Challenge {name}</h2>
      {ready.length === 0 ? (
        <p className="muted">You need an active bot of your own to challenge this one.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(
              () => createChallenge(chosen, [botId]),
              'Challenge sent: it is played, unrated, at the next tick both bots are idle.',
            );
          }}
        >
          <label>
            With{' '}
            <select value={chosen} onChange={(e) => setPick(e.target.value)} aria-label="Your bot">
              {ready.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="submit" className="primary" disabled={busy}>
            Challenge
          </button>
        </form>
      )}
      {said && <p role="status">{said}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {mine.length > 0 && (
        <ul className="plain" data-testid="challenges">
          {mine.map((c) => (
            <li key={c.id} data-challenge={c.id}>
              <span className={`status ${c.status}`}>{c.status}</span>{' '}
              {c.matchId ? (
                <Link href={paths.match(c.matchId)}>match {c.matchId}</Link>
              ) : (
                <span className="muted">{c.reason ?? `expires ${new Date(c.expiresAt).toLocaleTimeString()}`}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
