// Small display helpers shared by the pages.

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

/** A rating change with its sign and one decimal: +1.4, −0.3, ±0.0. */
export function formatDelta(d: number): string {
  const r = Math.round(d * 10) / 10;
  if (r === 0) return '±0.0';
  return r > 0 ? `+${r.toFixed(1)}` : `−${Math.abs(r).toFixed(1)}`;
}

export function formatRating(r: number): string {
  return (Math.round(r * 10) / 10).toFixed(1);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Timestamps are opaque strings in the contract; show them as local
 * "YYYY-MM-DD HH:MM" (":SS" too with `seconds`, for matches that last
 * seconds) when they parse. Written out by hand: the first
 * Intl/toLocaleString call loads locale data, which costs a cold page
 * a tenth of a second.
 */
export function formatTime(s: string | null | undefined, opts: { seconds?: boolean } = {}): string {
  if (!s) return '–';
  const t = Date.parse(s);
  if (Number.isNaN(t)) return s;
  const d = new Date(t);
  const hm = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return opts.seconds ? `${hm}:${pad(d.getSeconds())}` : hm;
}

export function formatAgo(s: string | null | undefined, now = Date.now()): string {
  if (!s) return '–';
  const t = Date.parse(s);
  if (Number.isNaN(t)) return s;
  const sec = Math.max(0, Math.round((now - t) / 1000));
  if (sec < 60) return `${sec} s ago`;
  if (sec < 3600) return `${Math.floor(sec / 60)} min ago`;
  if (sec < 86400) return `${Math.floor(sec / 3600)} h ago`;
  return formatTime(s);
}
