// The owner's strike log on a bot's page: each strike's code, message,
// decision and the first bytes of what the bot sent. Asked only of a
// signed-in visitor; the server answers only the bot's owner, and anyone
// else (403 or 404) sees nothing of this section at all.
import type { BotStrike } from '../../protocol/index';
import { listBotStrikes } from '../api';
import { useData } from '../lib/use-data';

export function StrikeLog({ botId }: { botId: string }) {
  const { data } = useData((signal) => listBotStrikes(botId, signal).catch(() => null), [botId], 30_000);
  if (!data) return null;
  return (
    <section aria-labelledby="strikes-h">
      <h2 id="strikes-h">Strikes</h2>
      <p className="muted">Only you see this: what your bot sent when it was struck (its first 200 bytes).</p>
      {data.strikes.length === 0 ? (
        <p data-testid="no-strikes">No strikes.</p>
      ) : (
        <div className="table-wrap">
          <table data-testid="strikes">
            <thead>
              <tr>
                <th>Match</th>
                <th>Decision</th>
                <th>Reason</th>
                <th>Message</th>
                <th>Answer</th>
              </tr>
            </thead>
            <tbody>
              {data.strikes.map((s: BotStrike) => (
                <tr key={`${s.matchId}:${s.decisionId}`}>
                  <td>
                    <a href={`/matches/${encodeURIComponent(s.matchId)}`}>{s.matchId}</a>
                  </td>
                  <td>
                    {s.decisionId} ({s.kind}, {s.turn === 0 ? 'setup' : `turn ${s.turn}`})
                  </td>
                  <td>
                    {s.reason}
                    {s.code ? ` ${s.code}` : ''}
                  </td>
                  <td>{s.message}</td>
                  <td>
                    <code>{s.answer ?? ''}</code>
                    {s.answerBytes !== undefined && s.answerBytes > 200 ? ` (of ${s.answerBytes} bytes)` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
