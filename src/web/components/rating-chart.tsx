// A bot's rating over its completed matches, as SVG, with the same numbers
// in a table for screen readers and for copying.
import { formatDelta, formatRating } from '../lib/format';
import type { RatingPoint } from '../lib/rating-history';
import { Link, paths } from '../router';

const W = 600;
const H = 220;
const PAD = { l: 44, r: 12, t: 12, b: 28 };

export function RatingChart({ points, start = 0 }: { points: readonly RatingPoint[]; start?: number }) {
  if (points.length === 0) return <p className="muted">No completed matches yet, so no rating history.</p>;
  const values = [start, ...points.map((p) => p.rating)];
  let lo = Math.min(...values, 0);
  let hi = Math.max(...values, 0);
  if (hi - lo < 1) {
    hi += 0.5;
    lo -= 0.5;
  }
  const x = (i: number) => PAD.l + (i / Math.max(1, values.length - 1)) * (W - PAD.l - PAD.r);
  const y = (v: number) => PAD.t + ((hi - v) / (hi - lo)) * (H - PAD.t - PAD.b);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = points[points.length - 1];
  const label = `Rating history over ${points.length} completed matches: from ${formatRating(start)} to ${formatRating(last.rating)}, lowest ${formatRating(Math.min(...values))}, highest ${formatRating(Math.max(...values))}.`;
  return (
    <figure>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-points={points.length}>
        <line className="axis" x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} />
        <line className="axis" x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} />
        {lo < 0 && hi > 0 && <line className="zero" x1={PAD.l} y1={y(0)} x2={W - PAD.r} y2={y(0)} />}
        <text x={PAD.l - 6} y={y(hi) + 4} textAnchor="end">
          {formatRating(hi)}
        </text>
        <text x={PAD.l - 6} y={y(lo) + 4} textAnchor="end">
          {formatRating(lo)}
        </text>
        <text x={PAD.l} y={H - 8}>
          start
        </text>
        <text
          x={W - PAD.r}
          y={H - 8}
          textAnchor="end"
        >{`after ${points.length} ${points.length === 1 ? 'match' : 'matches'}`}</text>
        <polyline className="line" points={line} />
        {values.map((v, i) => (
          <circle key={i} className="pt" cx={x(i)} cy={y(v)} r={values.length > 60 ? 1.5 : 3}>
            <title>
              {i === 0
                ? `Start: ${formatRating(v)}`
                : `After match ${points[i - 1].matchId}: ${formatRating(v)} (${formatDelta(points[i - 1].delta)})`}
            </title>
          </circle>
        ))}
      </svg>
      <figcaption className="muted">Rating (μ − 3σ) after each completed match, oldest first.</figcaption>
      <details>
        <summary>Rating history as a table</summary>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Match</th>
                <th scope="col" className="num">
                  Change
                </th>
                <th scope="col" className="num">
                  Rating
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.matchId}>
                  <td>
                    <Link href={paths.match(p.matchId)}>{p.matchId}</Link>
                  </td>
                  <td className="num">{formatDelta(p.delta)}</td>
                  <td className="num">{formatRating(p.rating)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
