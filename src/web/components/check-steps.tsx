// The checks a bot URL goes through on registration and on every URL change
// (spec section 4, "Deploy check"): the URL policy, GET /ping answering pong,
// then a signed WebSocket upgrade. POST /bots/check streams each step as it
// starts and passes; this shows them as they happen, and which one failed, why.
import { ApiError } from '../api';

export type CheckState =
  | { phase: 'idle' }
  /** step: the one running now (those before it passed). */
  | { phase: 'running'; url: string; step: number }
  | { phase: 'passed'; url: string }
  | { phase: 'failed'; url: string; step: number; message: string };

export const CHECK_STEPS = [
  'The URL is allowed (scheme, and an address the service may connect to)',
  'GET /ping answers "pong"',
  'A signed WebSocket upgrade is accepted',
] as const;

/** A step's index in CHECK_STEPS, by the name the server streams. */
export const STEP_INDEX = { url: 0, ping: 1, upgrade: 2 } as const;

/** Which step (0-based) an error failed at, or -1 when it is not a check failure (e.g. a bad name). */
export function failedStep(err: unknown): number {
  if (!(err instanceof ApiError) || err.status !== 422) return -1;
  if (err.code === 'url_rejected') return 0;
  if (err.code === 'deploy_check_failed') {
    // The server names the step ("deploy check failed at ping: ..."); the probe's own words say it too.
    const at = /failed at (url|ping|upgrade)\b/.exec(err.message)?.[1];
    if (at) return at === 'url' ? 0 : at === 'ping' ? 1 : 2;
    return /^WebSocket upgrade|websocket upgrade to/i.test(err.message) ? 2 : 1;
  }
  return -1;
}

export function CheckSteps({ state }: { state: CheckState }) {
  if (state.phase === 'idle') return null;
  return (
    <div className="card" data-testid="checks" data-phase={state.phase}>
      <h3>
        Checks for <span className="mono">{state.url}</span>
      </h3>
      <ol className="steps">
        {CHECK_STEPS.map((text, i) => {
          const status =
            state.phase === 'passed' || i < state.step
              ? 'pass'
              : state.phase === 'running'
                ? i === state.step
                  ? 'running'
                  : 'waiting'
                : i === state.step
                  ? 'fail'
                  : 'skipped';
          const mark = status === 'pass' ? '✓' : status === 'fail' ? '✗' : status === 'running' ? '…' : '–';
          const word =
            status === 'pass'
              ? 'passed'
              : status === 'fail'
                ? 'failed'
                : status === 'running'
                  ? 'checking'
                  : status === 'waiting'
                    ? 'waiting'
                    : 'not run';
          return (
            <li key={i} className={status} data-step={i} data-status={status}>
              <span className="mark" aria-hidden="true">
                {mark}
              </span>
              {text} <span className="visually-hidden">({word})</span>
              {status === 'fail' && state.phase === 'failed' && (
                <div className="form-error" data-testid="check-error">
                  {state.message}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <p role="status" className={state.phase === 'failed' ? 'error' : state.phase === 'passed' ? 'ok' : 'muted'}>
        {state.phase === 'running' && 'Checking the bot…'}
        {state.phase === 'passed' && 'All checks passed.'}
        {state.phase === 'failed' &&
          `Check ${state.step + 1} failed: nothing was saved. Fix the bot or the URL and try again.`}
      </p>
    </div>
  );
}
