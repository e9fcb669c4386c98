// Work that several requests of one event-loop turn each need, done back to
// back once the turn's I/O has been read (setImmediate), not one piece per
// request between the rest of each request's handling.
//
// Why, for signed requests' Ed25519 checks: a verification run right after
// another costs what `npm run bench -- serve` measures for one alone (~61 us),
// but one run after a request's parsing, routing and response writing costs
// some 15 us more (OpenSSL's code and tables have left the CPU's caches). Under
// load, the requests read in one turn are many, and back to back all but the
// first find the caches warm. Each request still gets its own check and its
// own answer, in the order the requests were read; with one request in the
// turn, it waits for nothing but the end of that turn's reads.

type Waiting<I, O> = { input: I; resolve: (out: O) => void; reject: (err: unknown) => void };

/**
 * `work` for each input, run together with the other inputs of this event-loop turn; a throw fails only its own input.
 */
export function batchPerTurn<I, O>(work: (input: I) => O): (input: I) => Promise<O> {
  let waiting: Array<Waiting<I, O>> = [];
  const flush = (): void => {
    const batch = waiting;
    waiting = [];
    for (const w of batch) {
      let out: O;
      try {
        out = work(w.input);
      } catch (err) {
        w.reject(err);
        continue;
      }
      w.resolve(out);
    }
  };
  return (input) =>
    new Promise<O>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ input, resolve, reject });
    });
}
