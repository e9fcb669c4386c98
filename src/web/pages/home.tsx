// Home: the leaderboard, the matches running now and the recent ones.
import { getLeaderboard, listMatches } from '../api';
import { MatchList } from '../components/match-list';
import { PageTitle } from '../components/page-title';
import { formatRating } from '../lib/format';
import { useData } from '../lib/use-data';
import { Link, paths } from '../router';

const REFRESH_MS = 10_000;

export function HomePage() {
  const board = useData((s) => getLeaderboard(s), [], REFRESH_MS);
  const running = useData((s) => listMatches({ status: 'running', limit: 20 }, s), [], REFRESH_MS);
  const recent = useData((s) => listMatches({ status: 'completed', limit: 10 }, s), [], REFRESH_MS);
  return (
    <>
      <PageTitle>Leaderboard</PageTitle>
      <section aria-labelledby="lb-h" className="card">
        <h2 id="lb-h" className="visually-hidden">
          Leaderboard: pioneers
        </h2>
        {board.error && (
          <p className="error" role="alert">
            {board.error}
          </p>
        )}
        {board.data && board.data.rows.length === 0 && (
          <p className="muted">
            No bot has finished a match yet. Register one under <Link href={paths.bots()}>My bots</Link>; the scheduler
            seats every idle active bot.
          </p>
        )}
        {board.data && board.data.rows.length > 0 && (
          <div className="table-wrap">
            <table data-testid="leaderboard">
              <thead>
                <tr>
                  <th scope="col" className="num">
                    Rank
                  </th>
                  <th scope="col">Bot</th>
                  <th scope="col">Owner</th>
                  <th scope="col" className="num">
                    Rating
                  </th>
                  <th scope="col" className="num">
                    Games
                  </th>
                </tr>
              </thead>
              <tbody>
                {board.data.rows.map((r) => (
                  <tr key={r.botId} data-bot={r.botId}>
                    <td className="num">{r.rank}</td>
                    <td>
                      <Link href={paths.bot(r.botId)}>{r.name}</Link>
                    </td>
                    <td>@{r.owner}</td>
                    <td className="num">{formatRating(r.rating)}</td>
                    <td className="num">{r.gamesPlayed}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!board.data && !board.error && <p aria-busy="true">Loading…</p>}
        <p className="muted rating-note" data-testid="rating-explained">
          Rating = mu − 3 sigma: the bot's estimated skill (mu) less three times the uncertainty of that estimate
          (sigma). It is a conservative figure, a level the bot is very likely above: a new bot starts at 0 and climbs
          as its games pin its skill down, so a few lucky wins do not put it on top.
        </p>
      </section>
      <div className="grid2">
        <section aria-labelledby="run-h" className="card">
          <h2 id="run-h">Running now</h2>
          {running.error && (
            <p className="error" role="alert">
              {running.error}
            </p>
          )}
          {running.data && <MatchList matches={running.data.matches} empty="No match is running." />}
        </section>
        <section aria-labelledby="recent-h" className="card">
          <h2 id="recent-h">Recent matches</h2>
          {recent.error && (
            <p className="error" role="alert">
              {recent.error}
            </p>
          )}
          {recent.data && <MatchList matches={recent.data.matches} empty="No finished matches yet." />}
        </section>
      </div>
    </>
  );
}
