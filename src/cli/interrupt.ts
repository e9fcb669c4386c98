// Stopping long runs: the first SIGINT (Ctrl-C) or SIGTERM (a service manager,
// `timeout`) aborts: running matches end as aborted and are recorded, and the
// summary so far is printed. A second signal quits at once.
//
// GNU `timeout` sends its signal to the command and then to the command's whole
// process group, so the command may get it twice within microseconds: a repeat
// that soon is that echo, not a second request (which would quit at once and
// lose the summary). A person pressing Ctrl-C again is far slower.
import { EXIT } from './errors';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** A repeat of the first signal within this many ms is taken for an echo of it. */
export const SIGNAL_ECHO_MS = 100;

/** The part of `process` this needs; tests pass their own (with a clock). */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): never;
  /** Milliseconds, for telling an echo from a second signal (default performance.now). */
  now?(): number;
}

/**
 * Listens for SIGINT and SIGTERM: `first` on the first one, `again` on any
 * later one but an echo of the first. Returns the function that stops listening.
 */
export function onStopSignals(
  source: SignalSource,
  first: (signal: NodeJS.Signals) => void,
  again: (signal: NodeJS.Signals) => void,
): () => void {
  const now = () => (source.now ? source.now() : performance.now());
  let firstAt = -1;
  let firstSignal: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignal === null) {
      firstSignal = signal;
      firstAt = now();
      first(signal);
    } else if (signal !== firstSignal || now() - firstAt >= SIGNAL_ECHO_MS) again(signal);
  };
  for (const s of SIGNALS) source.on(s, onSignal);
  return () => {
    for (const s of SIGNALS) source.off(s, onSignal);
  };
}

/** The exit code of a process ended by `signal`, as a shell reports it. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? EXIT.interrupted : 143;
}

export function abortOnSigint(
  controller: AbortController,
  note: (text: string) => void,
  source: SignalSource = process,
): () => void {
  return onStopSignals(
    source,
    (signal) => {
      const again = signal === 'SIGINT' ? 'Ctrl-C again' : 'signal again';
      note(
        `arena: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}, aborting running matches (${again} to quit at once)`,
      );
      controller.abort();
    },
    (signal) => {
      note(`arena: second ${signal}, quitting now`);
      source.exit(signalExitCode(signal));
    },
  );
}
