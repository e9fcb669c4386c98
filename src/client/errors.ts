// The client's error, in its own module so that code which only needs to
// recognise it (the CLI's error mapping) does not load undici.
export class ClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientError';
  }
}

/** What the usual connect failures mean, for people. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing listens there; is the server running?',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not answer in time',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to the network',
};

/**
 * The error for a request to `url` that got no answer: the server's origin, the system's code and, for the usual ones,
 * what it means.
 */
export function unreachable(url: string, err: unknown): ClientError {
  const e = err as { code?: string; cause?: { code?: string; message?: string }; message?: string };
  // fetch wraps the socket's error in `cause`; undici's request throws it as is.
  const code = e.cause?.code ?? e.code ?? e.cause?.message ?? e.message ?? String(err);
  const target = new URL(url);
  // fetch refuses the ports browsers refuse (6000, 6667, ...): a server there is fine, the client is not.
  const why =
    code === 'bad port'
      ? `fetch refuses port ${target.port}, as browsers do; run the server on another port`
      : REASONS[code];
  return new ClientError(`cannot reach ${target.origin}: ${code}${why ? ` (${why})` : ''}`);
}
