// The owner's part of a bot's page about its qualification and versions: the
// status, the latest qualifier (passed or failed, its match, each strike's
// reason), a button to requalify, and each version's games and rating. Asked
// only of a signed-in visitor; the server answers only the bot's owner, and
// anyone else (403 or 404) sees nothing of this section.
import { useState } from 'react';
import type { Bot, BotVersionList } from '../../protocol/index';
import { errorText, getBot, listBotVersions, requalifyBot } from '../api';
import { formatRating } from '../lib/format';
import { useData } from '../lib/use-data';

interface Owned {
  bot: Bot;
  versions: BotVersionList;
}

async function loadOwned(id: string, signal: AbortSignal): Promise<Owned | null> {
  try {
    const [bot, versions] = await Promise.all([getBot(id, signal), listBotVersions(id, signal)]);
    return { bot, versions };
  } catch {
    return null;
  }
}

export function Qualification({ botId }: { botId: string }) {
  const { data } = useData((signal) => loadOwned(botId, signal), [botId], 30_000);
  const [updated, setUpdated] = useState<Bot | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!data) return null;
  const bot = updated ?? data.bot;
  const q = bot.qualification ?? null;
  const requalify = async () => {
    setProblem(null);
    try {
      setUpdated(await requalifyBot(botId));
    } catch (err) {
      setProblem(errorText(err));
    }
  };
  return (
    <section aria-labelledby="qualification-h">
      <h2 id="qualification-h">Status and versions</h2>
      <p className="muted">Only you see this.</p>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="bot-status">{bot.status}</dd>
        <dt>Version</dt>
        <dd>v{bot.version ?? 1}</dd>
        <dt>Qualification</dt>
        <dd data-testid="qualification">
          {q
            ? `${q.state} (v${q.version})${q.reason ? `: ${q.reason}` : ''}`
            : 'none (registered before qualification, or the server runs without it)'}
          {q?.matchId && (
            <>
              {' '}
              · <a href={`/matches/${encodeURIComponent(q.matchId)}`}>qualifier match</a>
            </>
          )}
        </dd>
      </dl>
      {q && q.strikes.length > 0 && (
        <ol data-testid="qualification-strikes">
          {q.strikes.map((s, i) => (
            <li key={i}>
              {s.reason}
              {s.code ? ` ${s.code}` : ''}: {s.message}
            </li>
          ))}
        </ol>
      )}
      {q?.state !== 'qualifying' && (
        <p>
          <button type="button" onClick={() => void requalify()}>
            Requalify
          </button>
        </p>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div className="table-wrap">
        <table data-testid="versions">
          <thead>
            <tr>
              <th>Version</th>
              <th>Rated games</th>
              <th>Rating at its end</th>
              <th>Started</th>
              <th>Ended</th>
            </tr>
          </thead>
          <tbody>
            {data.versions.versions.map((v) => (
              <tr key={v.version}>
                <td>v{v.version}</td>
                <td>{v.games}</td>
                <td>{v.rating === null ? '–' : formatRating(v.rating)}</td>
                <td>{v.startedAt}</td>
                <td>{v.endedAt ?? 'now'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
