// A bot's head-to-head (GET /bots/{id}/opponents) as a table, sorted by the
// server: a column's button sorts by it, a second click reverses.
import { useState } from 'react';
import { listOpponents, type OpponentSort } from '../api';
import { useData } from '../lib/use-data';
import { Link, paths } from '../router';

/** The first page only: a bot's most frequent (or best, or A-Z) opponents. */
const SHOWN = 100;

export function OpponentsTable({ botId }: { botId: string }) {
  const [sort, setSort] = useState<{ by: OpponentSort; order: 'asc' | 'desc' }>({ by: 'games', order: 'desc' });
  const { data, error } = useData(
    (signal) => listOpponents(botId, { sort: sort.by, order: sort.order, limit: SHOWN }, signal),
    [botId, sort.by, sort.order],
    30_000,
  );
  if (error)
    return (
      <p className="error" role="alert">
        {error}
      </p>
    );
  if (!data) return <p aria-busy="true">Loading…</p>;
  if (data.opponents.length === 0) return <p className="muted">No completed matches yet.</p>;
  const header = (by: OpponentSort, label: string, num = true) => {
    const current = sort.by === by;
    const click = () =>
      setSort(
        current ? { by, order: sort.order === 'asc' ? 'desc' : 'asc' } : { by, order: by === 'name' ? 'asc' : 'desc' },
      );
    return (
      <th
        scope="col"
        className={num ? 'num' : undefined}
        aria-sort={current ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}
      >
        <button type="button" className="sort" onClick={click}>
          {label}
          {current ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
        </button>
      </th>
    );
  };
  return (
    <>
      <div className="table-wrap">
        <table data-testid="opponents">
          <thead>
            <tr>
              {header('name', 'Opponent', false)}
              <th scope="col">Owner</th>
              {header('games', 'Games')}
              {header('above', 'Placed above')}
              <th scope="col" className="num">
                Mean place
              </th>
              <th scope="col" className="num">
                Their mean
              </th>
            </tr>
          </thead>
          <tbody>
            {data.opponents.map((o) => (
              <tr key={o.botId} data-bot={o.botId}>
                <td>
                  <Link href={paths.bot(o.botId)}>
                    <bdi>{o.name || o.botId}</bdi>
                  </Link>
                </td>
                <td>{o.owner ? <bdi>@{o.owner}</bdi> : '–'}</td>
                <td className="num">{o.games}</td>
                <td className="num">
                  {o.above} ({Math.round(o.aboveShare * 100)}%)
                </td>
                <td className="num">{o.meanPlacement.toFixed(2)}</td>
                <td className="num">{o.opponentMeanPlacement.toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.next && (
        <p className="muted">
          Showing {SHOWN} opponents; GET /bots/{botId}/opponents pages through them all.
        </p>
      )}
    </>
  );
}
