// Ctrl-C for long runs: the first SIGINT aborts (running matches end as
// aborted, the summary so far is printed); a second one quits at once.
export function abortOnSigint(controller: AbortController, note: (text: string) => void): () => void {
  const onSigint = () => {
    if (controller.signal.aborted) {
      note('arena: second Ctrl-C, quitting now');
      process.exit(130);
    }
    note('arena: interrupted, aborting running matches (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return () => process.off('SIGINT', onSigint);
}
