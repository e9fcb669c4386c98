// What every handler may read from the request context.
import type { Scope } from '../../protocol/api';

/** Who is calling: a signed request (one key, its scopes) or a dashboard session (every scope). */
export interface Caller {
  userId: string;
  via: 'key' | 'session';
  keyId?: string;
  scopes: ReadonlySet<Scope>;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller | null;
    /** The exact request body bytes, read once (signatures cover them). */
    rawBody: Uint8Array;
  };
}
