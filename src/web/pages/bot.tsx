// A bot's public page: name, owner, rating history, opponents and recent matches. It is
// built from public data only (leaderboard and match records), so it can
// never show the bot's URL: no public response carries one. Its owner, signed
// in, also sees the bot's strike log (StrikeLog), its status, qualification and
// versions (Qualification) and the webhooks that hear of it (BotWebhooks): the
// server answers only them. A signed-in visitor may challenge the bot, or, as
// its owner, refuse challenges (ChallengePanel).
import type { LeaderboardRow, MatchSummary } from '../../protocol/index';
import { getLeaderboard, listMatches } from '../api';
import { PageTitle } from '../components/page-title';
import { MatchList } from '../components/match-list';
import { OpponentsTable } from '../components/opponents-table';
import { RatingChart } from '../components/rating-chart';
import { StrikeLog } from '../components/strike-log';
import { ChallengePanel } from '../components/challenge-panel';

import { BotWebhooks } from '../components/bot-webhooks';
import { Qualification } from '../components/qualification';
import { formatRating } from '../lib/format';
import { ratingHistory } from '../lib/rating-history';
import { useData } from '../lib/use-data';
import { useSession } from '../session';

/** At most this many pages of 100 matches are read for the chart. */
const MAX_PAGES = 20;

interface BotData {
  row: LeaderboardRow | undefined;
  matches: MatchSummary[];
  complete: boolean;
}

async function loadBot(id: string, signal: AbortSignal): Promise<BotData> {
  const board = getLeaderboard(signal);
  const matches: MatchSummary[] = [];
  let cursor: string | undefined;
  let complete = false;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await listMatches({ botId: id, limit: 100, cursor }, signal);
    matches.push(...res.matches);
    if (!res.next) {
      complete = true;
      break;
    }
    cursor = res.next;
  }
  const { rows } = await board;
  return { row: rows.find((r) => r.botId === id), matches, complete };
}

export function BotPage({ id }: { id: string }) {
  const { data, error } = useData((signal) => loadBot(id, signal), [id], 30_000);
  const { user } = useSession();
  if (error)
    return (
      <>
        <PageTitle>Bot</PageTitle>
        <p className="error" role="alert">
          {error}
        </p>
      </>
    );
  if (!data)
    return (
      <>
        <PageTitle>Bot</PageTitle>
        <p aria-busy="true">Loading…</p>
      </>
    );
  const { row, matches, complete } = data;
  const name = row?.name ?? matches.flatMap((m) => m.players).find((p) => p.botId === id)?.botName;
  if (!name) {
    return (
      <>
        <PageTitle>Bot</PageTitle>
        <p>No public record of this bot yet: it appears here once it has played a match.</p>
        {user && <Qualification botId={id} />}
      </>
    );
  }
  const history = ratingHistory(id, matches, { complete, currentRating: row?.rating });
  const running = matches.filter((m) => m.status === 'running');
  return (
    <>
      <PageTitle>{name}</PageTitle>
      <dl className="facts">
        <dt>Owner</dt>
        <dd data-testid="owner">{row ? `@${row.owner}` : 'not on the leaderboard yet'}</dd>
        <dt>Rating</dt>
        <dd data-testid="rating">{row ? formatRating(row.rating) : '–'}</dd>
        <dt>Rank</dt>
        <dd>{row ? row.rank : '–'}</dd>
        <dt>Games</dt>
        <dd>{row ? row.gamesPlayed : history.points.length}</dd>
      </dl>
      <section aria-labelledby="history-h">
        <h2 id="history-h">Rating history</h2>
        <RatingChart points={history.points} start={history.start} />
        {!complete && <p className="muted">Showing the newest {matches.length} matches.</p>}
      </section>
      {running.length > 0 && (
        <section aria-labelledby="now-h">
          <h2 id="now-h">Playing now</h2>
          <MatchList matches={running} empty="" botId={id} />
        </section>
      )}
      <section aria-labelledby="opponents-h">
        <h2 id="opponents-h">Opponents</h2>
        <OpponentsTable botId={id} />
      </section>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Recent matches</h2>
        <MatchList
          matches={matches.filter((m) => m.status !== 'running').slice(0, 20)}
          empty="No finished matches yet."
          botId={id}
        />
      </section>
      {user && <Qualification botId={id} />}
      {user && <ChallengePanel botId={id} name={name} />}
      {user && <StrikeLog botId={id} />}
      {user && <BotWebhooks botId={id} />}
    </>
  );
}
