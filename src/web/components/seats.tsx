// One panel per seat: the public counts of a PublicView (cards, dev cards,
// knights, road length, public VP), awards, strikes, and once the match is
// over its placement and rating change.
import type { PublicView } from '../../../engine/index';
import type { MatchPlayer } from '../../protocol/index';
import { Link, paths } from '../router';
import { formatDelta, ordinal } from '../lib/format';

export interface SeatPanelsProps {
  view: PublicView;
  players: readonly MatchPlayer[];
  strikes: readonly number[];
  /** Show placements and rating deltas (finished match). */
  final: boolean;
}

export function SeatPanels({ view, players, strikes, final }: SeatPanelsProps) {
  const bySeat = new Map(players.map((p) => [p.seat, p]));
  return (
    <section className="seats" aria-label="Seats">
      {Array.from({ length: view.seatCount }, (_, s) => {
        const p = bySeat.get(s);
        const current = view.phase !== 'over' && view.current === s;
        const awards: string[] = [];
        if (view.awards.longestRoad === s) awards.push('Longest road');
        if (view.awards.largestArmy === s) awards.push('Largest army');
        return (
          <article
            key={s}
            className={`seat${current ? ' current' : ''}`}
            data-seat={s}
            aria-label={`Seat ${s}: ${p?.botName ?? 'unknown bot'}`}
          >
            <h3>
              <span className={`swatch seat${s}`} aria-hidden="true" />{' '}
              {p ? <Link href={paths.bot(p.botId)}>{p.botName}</Link> : `Seat ${s}`}
              <span className="muted"> · seat {s}</span>
            </h3>
            {current && <div className="badge">{view.phase === 'setup' ? 'placing' : 'to play'}</div>}
            <dl>
              <dt>VP (public)</dt>
              <dd data-field="vp">{view.scores[s]}</dd>
              <dt>Cards</dt>
              <dd data-field="cards">{view.handCounts[s]}</dd>
              <dt>Dev cards</dt>
              <dd data-field="dev">{view.devCounts[s]}</dd>
              <dt>Knights</dt>
              <dd>{view.knightsPlayed[s]}</dd>
              <dt>Road length</dt>
              <dd>{view.roadLengths[s]}</dd>
              <dt>Strikes</dt>
              <dd data-field="strikes">{strikes[s] ?? 0}</dd>
              {final && p && (
                <>
                  <dt>Placement</dt>
                  <dd data-field="placement">{p.placement === null ? '–' : ordinal(p.placement)}</dd>
                  <dt>Rating</dt>
                  <dd data-field="delta">{p.ratingDelta === null ? '–' : formatDelta(p.ratingDelta)}</dd>
                </>
              )}
            </dl>
            <div>
              {awards.map((a) => (
                <span key={a} className="badge">
                  {a}
                </span>
              ))}
              {view.resigned[s] && <span className="badge bad">resigned</span>}
            </div>
          </article>
        );
      })}
    </section>
  );
}
