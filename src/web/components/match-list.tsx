// Lists of matches and the players of one match.
import type { MatchPlayer, MatchSummary } from '../../protocol/index';
import { formatAgo, formatDelta, ordinal } from '../lib/format';
import { Link, paths } from '../router';

export function MatchPlayersTable({
  players,
  final,
  highlight,
}: {
  players: readonly MatchPlayer[];
  final: boolean;
  highlight?: string;
}) {
  const rows = [...players].sort((a, b) => (final ? (a.placement ?? 9) - (b.placement ?? 9) : 0) || a.seat - b.seat);
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            {final && <th scope="col">Place</th>}
            <th scope="col">Seat</th>
            <th scope="col">Bot</th>
            {final && (
              <th scope="col" className="num">
                Rating change
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.seat} data-bot={p.botId} className={highlight === p.botId ? 'current' : undefined}>
              {final && <td>{p.placement === null ? '–' : ordinal(p.placement)}</td>}
              <td>
                <span className={`swatch seat${p.seat}`} aria-hidden="true" /> {p.seat}
              </td>
              <td>
                <Link href={paths.bot(p.botId)}>{p.botName}</Link>
              </td>
              {final && <td className="num">{p.ratingDelta === null ? '–' : formatDelta(p.ratingDelta)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One line per match: its players (placements once finished) and when. */
export function MatchList({
  matches,
  empty,
  botId,
}: {
  matches: readonly MatchSummary[];
  empty: string;
  botId?: string;
}) {
  if (matches.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="plain">
      {matches.map((m) => {
        const players = [...m.players].sort((a, b) => (a.placement ?? 9) - (b.placement ?? 9) || a.seat - b.seat);
        const mine = botId ? m.players.find((p) => p.botId === botId) : undefined;
        return (
          <li key={m.id} data-match={m.id}>
            <Link href={paths.match(m.id)}>
              {m.status === 'running' ? 'Watch' : 'Replay'} {m.id}
            </Link>{' '}
            <span className={`status ${m.status}`}>{m.status}</span>{' '}
            {m.challenge && (
              <>
                <span className="status unrated" data-testid="challenge">
                  challenge
                </span>{' '}
              </>
            )}
            <span className="muted">{formatAgo(m.endedAt ?? m.startedAt)}</span>
            {mine && m.status === 'completed' && (
              <span>
                {' '}
                · {mine.placement === null ? '–' : ordinal(mine.placement)}
                {mine.ratingDelta === null ? '' : ` (${formatDelta(mine.ratingDelta)})`}
              </span>
            )}
            <div className="muted">
              {players.map((p, i) => (
                <span key={p.seat}>
                  {i > 0 && ', '}
                  {m.status === 'completed' && p.placement !== null ? `${ordinal(p.placement)} ` : ''}
                  {/* Isolated: a right-to-left name must not reorder the names after it on the line. */}
                  <bdi>{p.botName}</bdi>
                </span>
              ))}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
