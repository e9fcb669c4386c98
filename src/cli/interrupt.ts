// Stopping long runs: the first SIGINT (Ctrl-C) or SIGTERM (a service manager,
// `timeout`) aborts: running matches end as aborted and are recorded, and the
// summary so far is printed. A second signal quits at once.
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The part of `process` this needs; tests pass their own. */
export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): never;
}

export function abortOnSigint(controller: AbortController, note: (text: string) => void, source: SignalSource = process): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    const again = signal === 'SIGINT' ? 'Ctrl-C again' : 'signal again';
    if (controller.signal.aborted) {
      note(`arena: second ${signal}, quitting now`);
      source.exit(signal === 'SIGINT' ? 130 : 143);
    }
    note(`arena: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}, aborting running matches (${again} to quit at once)`);
    controller.abort();
  };
  for (const s of SIGNALS) source.on(s, onSignal);
  return () => {
    for (const s of SIGNALS) source.off(s, onSignal);
  };
}
