// Stopping long runs: the first SIGINT (Ctrl-C) or SIGTERM (a service manager,
// `timeout`) aborts: running matches end as aborted and are recorded, and the
// summary so far is printed. A second signal quits at once.
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function abortOnSigint(controller: AbortController, note: (text: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    const again = signal === 'SIGINT' ? 'Ctrl-C again' : 'signal again';
    if (controller.signal.aborted) {
      note(`arena: second ${signal}, quitting now`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    note(`arena: ${signal === 'SIGINT' ? 'interrupted' : 'terminated'}, aborting running matches (${again} to quit at once)`);
    controller.abort();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return () => {
    for (const s of SIGNALS) process.off(s, onSignal);
  };
}
