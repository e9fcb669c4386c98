// The key check behind `arena login`: a server that takes the connection and
// never answers gives no verdict within the timeout, instead of holding the login.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkKey } from '../../src/client/check-key';
import { generateKeyPair } from '../../src/keys/index';

const sockets = new Set<Socket>();
const silent = createServer((s) => {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
});
beforeAll(() => new Promise<void>((r) => silent.listen(0, '127.0.0.1', r)));
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
});

describe('checkKey', () => {
  it('gives up on a server that never answers after the timeout, with no verdict', async () => {
    const { port } = silent.address() as AddressInfo;
    const t0 = performance.now();
    const r = await checkKey({
      baseUrl: `http://127.0.0.1:${port}`,
      keyId: 'k1',
      privateKey: generateKeyPair().privateKey,
      timeoutMs: 300,
    });
    const ms = performance.now() - t0;
    expect(r).toEqual({
      outcome: 'unknown',
      reason: expect.stringMatching(/UND_ERR_HEADERS_TIMEOUT \(the server did not answer in time\)/),
    });
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(10_000);
  });
});
