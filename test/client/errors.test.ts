// "cannot reach": one message for every client (signed API, public reads, the
// live stream, the platform key), with the system's code and what it means.
import { describe, expect, it } from 'vitest';
import { ClientError, unreachable } from '../../src/client/errors';

describe('unreachable', () => {
  it('names the origin and the code, and says what the usual codes mean', () => {
    // undici's request throws the socket's error itself...
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9999'), { code: 'ECONNREFUSED' });
    expect(unreachable('http://127.0.0.1:9999/me?x=1', refused)).toEqual(
      new ClientError(
        'cannot reach http://127.0.0.1:9999: ECONNREFUSED (nothing listens there; is the server running?)',
      ),
    );
    // ...fetch wraps it in `cause`.
    const notFound = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
    });
    expect(unreachable('https://arena.example/leaderboard', notFound).message).toBe(
      'cannot reach https://arena.example: ENOTFOUND (no such host)',
    );
  });

  it("explains fetch's blocked ports, which a server may well listen on", () => {
    const badPort = new TypeError('fetch failed', { cause: new Error('bad port') });
    expect(unreachable('http://127.0.0.1:6000/matches', badPort).message).toBe(
      'cannot reach http://127.0.0.1:6000: bad port (fetch refuses port 6000, as browsers do; run the server on another port)',
    );
  });

  it('passes an unknown code or message through as it is', () => {
    expect(unreachable('http://127.0.0.1:1/', Object.assign(new Error('x'), { code: 'EWEIRD' })).message).toBe(
      'cannot reach http://127.0.0.1:1: EWEIRD',
    );
    expect(unreachable('http://127.0.0.1:1/', new Error('socket hang up')).message).toBe(
      'cannot reach http://127.0.0.1:1: socket hang up',
    );
  });
});
