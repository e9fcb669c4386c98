// The service's log: one JSON object per line (for machines), or a short
// readable line for a terminal (--log-format pretty).
/** One structured log line; the server prints it as JSON or pretty text. Never pass secrets or bot URLs. */
export type ServiceLog = (fields: Record<string, unknown>) => void;

export type LogFormat = 'json' | 'pretty';

export function createLog(
  out: { write(s: string): unknown },
  format: LogFormat,
  now: () => number = Date.now,
): ServiceLog {
  if (format === 'json')
    return (fields) => void out.write(`${JSON.stringify({ time: new Date(now()).toISOString(), ...fields })}\n`);
  return (fields) => {
    const { event, ...rest } = fields;
    const time = new Date(now()).toISOString().slice(11, 19);
    const detail = Object.entries(rest)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    out.write(`${time} ${String(event ?? 'log')} ${detail}\n`);
  };
}
