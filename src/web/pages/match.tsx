// The match page. A running match follows /matches/{id}/live (Server-Sent
// Events: snapshot, event, view, end); a finished one is stepped in the
// browser by the engine from its public seed and replay, with a scrubber.
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { PublicView, RecordedEvent } from '../../../engine/index';
import type { Match, MatchPlayer } from '../../protocol/index';
import { decisionsAt } from '../../protocol/decision-lookup';
import type { DecisionEntry } from '../../protocol/match-header-types';
import { getMatch, liveUrl } from '../api';
import { Board } from '../components/board';
import { EventLog } from '../components/event-log';
import { MatchPlayersTable } from '../components/match-list';
import { Scrubber } from '../components/scrubber';
import { SeatPanels } from '../components/seats';
import { strikesOf, type EventLike } from '../lib/describe';
import { formatTime } from '../lib/format';
import { PacedQueue } from '../lib/paced-queue';
import { ReplayCursor } from '../lib/replay';
import { useData } from '../lib/use-data';
import { Link, paths } from '../router';
import { PageTitle } from '../components/page-title';

function namesOf(players: readonly MatchPlayer[]): string[] {
  const names: string[] = [];
  for (const p of players) names[p.seat] = p.botName;
  return names;
}

/** The page's name: its bots in seat order ("A vs B vs C"), not the match id. */
export function matchTitle(players: readonly MatchPlayer[]): string {
  const names = namesOf(players).filter(Boolean);
  return names.length ? names.join(' vs ') : 'Match';
}

export function MatchPage({ id, event }: { id: string; event: number | null }) {
  const {
    data: match,
    error,
    reload,
  } = useData(
    async (signal) => {
      const m = await getMatch(id, signal);
      performance.mark('arena:match-data');
      return m;
    },
    [id],
  );
  if (error) {
    return (
      <>
        <PageTitle>Match</PageTitle>
        <p className="error" role="alert">
          {error}
        </p>
        <p>
          <Link href={paths.home()}>Back to the leaderboard</Link>
        </p>
      </>
    );
  }
  if (!match)
    return (
      <>
        <PageTitle>Match</PageTitle>
        <p aria-busy="true">Loading the match…</p>
      </>
    );
  const title = matchTitle(match.players);
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p>
        <span className={`status ${match.status}`}>{match.status}</span>{' '}
        {match.challenge ? (
          <>
            <span
              className="status unrated"
              data-testid="challenge"
              title="Played for a challenge one owner made: it changed no rating"
            >
              challenge · unrated
            </span>{' '}
          </>
        ) : match.qualification ? (
          <>
            <span
              className="status unrated"
              data-testid="qualifier"
              title="A new bot or version against the server's built-in bots: it changed no rating"
            >
              qualifier, unrated
            </span>{' '}
          </>
        ) : match.rated === false ? (
          <>
            <span
              className="status unrated"
              data-testid="unrated"
              title="Two bots of one owner sat at this table: it changed no rating"
            >
              unrated
            </span>{' '}
          </>
        ) : null}
        <span className="muted" data-testid="match-times">
          started {formatTime(match.startedAt, { seconds: true })}
          {match.endedAt ? `, ended ${formatTime(match.endedAt, { seconds: true })}` : ''}
        </span>
      </p>
      {match.status === 'running' ? (
        <LiveMatch match={match} onEnd={reload} />
      ) : match.seed && match.replay.length > 0 ? (
        <ReplayMatch match={match as Match & { seed: string }} event={event} />
      ) : (
        <>
          <p>This match was aborted before it produced a replay: no placements and no rating changes.</p>
          <MatchPlayersTable players={match.players} final />
        </>
      )}
    </>
  );
}

interface Snapshot {
  match: { players: MatchPlayer[] };
  seq: number;
  view: PublicView | null;
  recent: EventLike[];
}

/** How long the page waits before opening a live stream the server refused (an HTTP error). */
const LIVE_RETRY_MS = 3000;
/** A match faster than this (quick bots play one in under a second) is shown at this pace, as `arena watch` does. */
export const LIVE_EVENTS_PER_SECOND = 5;

function LiveMatch({ match, onEnd }: { match: Match; onEnd: () => void }) {
  const [players, setPlayers] = useState<MatchPlayer[]>(match.players);
  const [view, setView] = useState<PublicView | null>(null);
  const [events, setEvents] = useState<EventLike[]>([]);
  const [state, setState] = useState<'connecting' | 'live' | 'reconnecting' | 'ended'>('connecting');
  const [behind, setBehind] = useState(0);
  const [pacer, setPacer] = useState<PacedQueue | null>(null);

  useEffect(() => {
    const queue = new PacedQueue(LIVE_EVENTS_PER_SECOND, setBehind);
    setPacer(queue);
    const parse = (e: MessageEvent) => {
      try {
        return JSON.parse(e.data as string);
      } catch {
        return null;
      }
    };
    const append = (added: EventLike[]) =>
      setEvents((old) => {
        const lastSeq = old.length ? (old[old.length - 1].seq ?? -1) : -1;
        const fresh = added.filter((ev) => (ev.seq ?? -1) > lastSeq);
        return fresh.length ? [...old, ...fresh] : old;
      });
    let es: EventSource;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const connect = () => {
      es = new EventSource(liveUrl(match.id));
      es.addEventListener('open', () => setState('live'));
      es.addEventListener('error', () => {
        setState((s) => (s === 'ended' ? s : 'reconnecting'));
        // A network error is retried by EventSource itself; an HTTP error (a proxy's 502 while the
        // server restarts, a 429) closes it for good: open a new one a little later.
        if (es.readyState === EventSource.CLOSED && !done) retry = setTimeout(connect, LIVE_RETRY_MS);
      });
      es.addEventListener('snapshot', (e) => {
        const s = parse(e as MessageEvent) as Snapshot | null;
        if (!s) return;
        setState('live');
        // In order with the events before it (a reconnect's snapshot must not overtake those still waiting).
        queue.push({
          event: false,
          show: () => {
            setPlayers(s.match.players);
            if (s.view) setView(s.view);
            append(s.recent ?? []);
          },
        });
      });
      es.addEventListener('event', (e) => {
        const ev = parse(e as MessageEvent) as EventLike | null;
        if (ev) queue.push({ event: true, show: () => append([ev]) });
      });
      es.addEventListener('view', (e) => {
        const v = parse(e as MessageEvent) as { view: PublicView } | null;
        if (v?.view) queue.push({ event: false, show: () => setView(v.view) });
      });
      es.addEventListener('end', () => {
        // The server closes the stream; without close() EventSource would reconnect.
        done = true;
        es.close();
        // The end is shown (and the replay loaded) once the events before it have been.
        queue.push({
          event: false,
          show: () => {
            setState('ended');
            onEnd();
          },
        });
      });
    };
    connect();
    return () => {
      done = true;
      clearTimeout(retry);
      es.close();
      queue.dispose();
    };
  }, [match.id, onEnd]);

  const names = namesOf(players);
  const strikes = useMemo(() => strikesOf(events, players.length), [events, players.length]);
  return (
    <div className="grid2">
      <div>
        <p role="status" data-testid="live-state">
          {state === 'live'
            ? '● Live'
            : state === 'connecting'
              ? 'Connecting to the live stream…'
              : state === 'reconnecting'
                ? 'Connection lost; reconnecting…'
                : 'The match has ended; loading its replay…'}
          {view ? ` · turn ${view.turn}${view.dice ? ` · rolled ${view.dice[0]}+${view.dice[1]}` : ''}` : ''}
          {behind > 0 ? (
            <>
              {' · '}
              <span className="behind" data-testid="behind">
                {behind} event{behind === 1 ? '' : 's'} behind live
              </span>{' '}
              <button type="button" onClick={() => pacer?.jump()}>
                Jump to live
              </button>
            </>
          ) : null}
        </p>
        {view ? <Board view={view} names={names} /> : <p>Waiting for the first move…</p>}
        {view && <SeatPanels view={view} players={players} strikes={strikes} final={false} />}
      </div>
      <div>
        <h2>Events</h2>
        <EventLog events={events} ctx={{ names, board: view?.board }} live />
      </div>
    </div>
  );
}

function ReplayMatch({ match, event }: { match: Match & { seed: string }; event: number | null }) {
  const seatCount = match.players.length as 3 | 4;
  const count = match.replay.length;
  const opened = Math.min(count - 1, event ?? count - 1);
  const cursor = useMemo(
    () => {
      const c = new ReplayCursor(match.seed, seatCount, match.replay as unknown as RecordedEvent[], opened);
      performance.mark('arena:replay-stepped');
      return c;
    },
    // The cursor is made once per record; `opened` only chooses where its first views are made.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [match.seed, seatCount, match.replay],
  );
  const [index, setIndex] = useState(opened);
  useEffect(() => {
    if (event !== null) setIndex(Math.min(count - 1, event));
  }, [event, count]);
  const change = useCallback((i: number) => setIndex(i), []);
  const names = namesOf(match.players);
  const view = cursor.view(index);
  // The board first: the log (up to a hundred sentences) follows in a second, lower-priority render.
  const showLog = useDeferredValue(true, false);
  const events = match.replay as unknown as EventLike[];
  const strikes = useMemo(() => strikesOf(events.slice(0, index + 1), seatCount), [events, index, seatCount]);
  const start = match.replay[0];
  const rules = start && start.kind === 'start' ? start.data.rulesVersion : '?';
  if (!view) return <p className="error">This replay has no events to show.</p>;
  return (
    <div className="grid2">
      <div>
        {cursor.error && (
          <p className="error" role="alert">
            The engine does not reproduce this record ({cursor.error}); the positions after that point may be wrong.
          </p>
        )}
        <Scrubber matchId={match.id} index={index} count={count} turns={cursor.turns} onChange={change} />
        <DecisionNote
          decisions={decisionsAt((match as { decisions?: DecisionEntry[] }).decisions, events, index)}
          names={names}
        />
        <Board view={view} names={names} />
        <SeatPanels view={view} players={match.players} strikes={strikes} final={index === count - 1} />
      </div>
      <div>
        <h2>Result</h2>
        <MatchPlayersTable players={match.players} final />
        <dl className="facts">
          <dt>Seed</dt>
          <dd className="mono" data-testid="seed">
            {match.seed}
          </dd>
          <dt>Rules</dt>
          <dd>{rules}</dd>
        </dl>
        <h2>Events</h2>
        {showLog ? (
          <EventLog events={events} current={index} ctx={{ names, board: view.board }} />
        ) : (
          <p aria-busy="true">Loading the log…</p>
        )}
      </div>
    </div>
  );
}

/**
 * The decision behind the current event, from a record with decisions (local
 * `arena play --web` records; a server's public records carry times, never
 * notes): its time and the bot's own note.
 */
function DecisionNote({ decisions, names }: { decisions: DecisionEntry[]; names: string[] }) {
  const d = decisions[decisions.length - 1];
  if (!d) return null;
  const note = d.debug === undefined ? null : typeof d.debug === 'string' ? d.debug : JSON.stringify(d.debug);
  return (
    <div className="decision" data-testid="decision">
      <span className="muted">
        {names[d.seat] ?? `seat ${d.seat}`} · {d.kind} · <span data-testid="decision-ms">{d.ms} ms</span>
      </span>
      {note !== null && (
        <pre className="note" data-testid="decision-note">
          {note}
          {d.debugTruncated ? ' …(cut at 2048 bytes)' : ''}
        </pre>
      )}
    </div>
  );
}
