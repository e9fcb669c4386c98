// The server's refusal, in its own module so that code which only needs to
// recognise it (the CLI's error mapping) does not load undici.

/** The server refused: status, docs/decisions.md's error code and its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly serverMessage: string,
  ) {
    super(`${serverMessage} (HTTP ${status} ${code})`);
    this.name = 'ApiError';
  }

  /** 401 and 403: the key, its signature or its scopes; the CLI exits 4 for these. */
  get isAuth(): boolean {
    return this.status === 401 || this.status === 403;
  }
}
