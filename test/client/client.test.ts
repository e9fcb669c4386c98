import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import {
  ClientError,
  fetchPlatformKey,
  formatResponseBody,
  readBodyArg,
  requestTarget,
  sendSigned,
} from '../../src/client/index';
import { formatPublicKey, generateKeyPair, publicKeyRaw, signHandshake, verifyHandshake } from '../../src/keys/index';
import { startSignedServer, type SignedServer } from '../support/signed-server';
import { Readable } from 'node:stream';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../support/tmp';
import { MAX_BODY_BYTES } from '../../src/protocol/api';

const owner = generateKeyPair();
const platform = generateKeyPair();
const stranger = generateKeyPair();
let server: SignedServer;
const tmp = makeTempDir();

beforeAll(async () => {
  server = await startSignedServer(undefined, formatPublicKey(platform.publicKey, 'raw'));
  server.keys.set('k1', { publicKey: publicKeyRaw(owner.publicKey), revoked: false });
  server.keys.set('old', { publicKey: owner.publicKey, revoked: true });
});
afterAll(async () => {
  await server.close();
  tmp.cleanup();
});

const base = () => ({ baseUrl: server.url, keyId: 'k1', privateKey: owner.privateKey });

describe('sendSigned against a verifying server', () => {
  it('is accepted, with the path and query the server sees', async () => {
    const res = await sendSigned({ ...base(), method: 'get', path: '/me' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toMatchObject({ name: 'ada', keyId: 'k1' });
    const echo = await sendSigned({ ...base(), method: 'GET', path: '/echo?game=pioneers&x=%20' });
    expect(JSON.parse(echo.body.toString())).toMatchObject({ method: 'GET', path: '/echo?game=pioneers&x=%20' });
  });

  it('sends and signs the exact body bytes, including non-UTF-8', async () => {
    const body = Buffer.from([0x7b, 0xff, 0x00, 0x7d]);
    const res = await sendSigned({ ...base(), method: 'POST', path: '/echo', body });
    expect(res.status).toBe(200);
    expect(Buffer.from(JSON.parse(res.body.toString()).body, 'base64')).toEqual(body);
    expect(server.seen.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('signs the base URL path prefix too, since that is what the server sees', async () => {
    expect(requestTarget('http://h:1/api', '/bots?g=1')).toEqual({
      url: 'http://h:1/api/bots?g=1',
      signedPath: '/api/bots?g=1',
    });
    const res = await sendSigned({ ...base(), baseUrl: `${server.url}/echo`, method: 'GET', path: '/sub' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).path).toBe('/echo/sub');
  });

  it('signs the path as the request line carries it: encoded, dot segments resolved, never another host', async () => {
    expect(requestTarget('http://h:1', '/bots?x=a b&y=\u00e9')).toEqual({
      url: 'http://h:1/bots?x=a%20b&y=%C3%A9',
      signedPath: '/bots?x=a%20b&y=%C3%A9',
    });
    expect(requestTarget('http://h:1/api', '/bots/../me')).toEqual({ url: 'http://h:1/api/me', signedPath: '/api/me' });
    expect(requestTarget('http://h:1', '//evil.example/x').url).toBe('http://h:1//evil.example/x');
    expect(() => requestTarget('http://h:1', '/bots#frag')).toThrow(/must not contain "#"/);
    for (const path of ['/echo?x=a b&y=\u00e9', '/echo/sub/../other']) {
      const res = await sendSigned({ ...base(), method: 'GET', path });
      expect(res.status, res.body.toString()).toBe(200);
    }
    expect(server.seen.slice(-2).map((r) => r.path)).toEqual(['/echo?x=a%20b&y=%C3%A9', '/echo/other']);
  });

  it('gets 401 with the reason for an unknown key, a revoked key and the wrong key', async () => {
    const cases = [
      [{ keyId: 'nope' }, /unknown key id/],
      [{ keyId: 'old' }, /revoked/],
      [{ privateKey: stranger.privateKey }, /signature does not match/],
      [{ now: Date.now() - 6 * 60_000 }, /ms old/],
    ] as const;
    for (const [over, reason] of cases) {
      const res = await sendSigned({ ...base(), ...over, method: 'GET', path: '/me' });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body.toString()).error.message).toMatch(reason);
    }
  });

  it('does not let extra headers replace the signature headers', async () => {
    const res = await sendSigned({
      ...base(),
      method: 'GET',
      path: '/me',
      headers: { 'X-Svc-Key': 'old', accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(server.seen.at(-1)?.headers.accept).toBe('application/json');
  });

  it('reports an unreachable server as a ClientError with the cause', async () => {
    const port = await freePort();
    await expect(
      sendSigned({ ...base(), baseUrl: `http://127.0.0.1:${port}`, method: 'GET', path: '/me' }),
    ).rejects.toThrow(
      new ClientError(
        `cannot reach http://127.0.0.1:${port}: ECONNREFUSED (nothing listens there; is the server running?)`,
      ),
    );
  });
});

describe('fetchPlatformKey', () => {
  it('reads the platform key from /.well-known/svc.json, and a bot can verify a handshake with it', async () => {
    const key = await fetchPlatformKey(server.url);
    expect(Buffer.from(key)).toEqual(Buffer.from(publicKeyRaw(platform.publicKey)));
    expect(verifyHandshake(key, signHandshake(platform.privateKey, 'm-7')).ok).toBe(true);
  });

  it('says what is wrong with a server that has no usable key', async () => {
    const bare = await startSignedServer();
    try {
      await expect(fetchPlatformKey(bare.url)).rejects.toThrow(/svc.json: public key is empty/);
    } finally {
      await bare.close();
    }
  });
});

describe('readBodyArg', () => {
  it('reads a literal, @file bytes and stdin', async () => {
    expect(await readBodyArg(undefined)).toBeUndefined();
    expect(Buffer.from((await readBodyArg('{"a":1}'))!).toString()).toBe('{"a":1}');
    const file = join(tmp.dir, 'body.bin');
    writeFileSync(file, Buffer.from([1, 2, 3]));
    expect(Buffer.from((await readBodyArg(`@${file}`))!)).toEqual(Buffer.from([1, 2, 3]));
    expect(
      Buffer.from((await readBodyArg('-', Readable.from([Buffer.from('ab'), Buffer.from('c')])))!).toString(),
    ).toBe('abc');
    await expect(readBodyArg(`@${file}.missing`)).rejects.toThrow(/cannot read body file .*missing: no such file/);
    await expect(readBodyArg(`@${tmp.dir}`)).rejects.toThrow(/cannot read body file .*: it is a directory/);
  });

  it("takes up to the API's 64 KiB and refuses more without reading on: a literal, a file, stdin, /dev/zero", async () => {
    const full = join(tmp.dir, 'full.json');
    writeFileSync(full, 'x'.repeat(MAX_BODY_BYTES));
    expect((await readBodyArg(`@${full}`))!.length).toBe(MAX_BODY_BYTES);
    writeFileSync(full, 'x'.repeat(MAX_BODY_BYTES + 1));
    await expect(readBodyArg(`@${full}`)).rejects.toThrow(
      new RegExp(`body file .*full\\.json is over ${MAX_BODY_BYTES} bytes`),
    );
    await expect(readBodyArg('y'.repeat(MAX_BODY_BYTES + 1))).rejects.toThrow(/the --data body is over/);
    // An endless stdin: refused once past the limit; the test would hang if it were read to the end.
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(4096, 0x20));
      },
    });
    await expect(readBodyArg('-', endless)).rejects.toThrow(/the body on stdin is over/);
    expect(endless.destroyed).toBe(true);
    if (existsSync('/dev/zero'))
      await expect(readBodyArg('@/dev/zero')).rejects.toThrow(/body file \/dev\/zero is over/);
  });
});

describe('formatResponseBody', () => {
  it('pretty-prints JSON for a terminal and leaves pipes and non-JSON untouched', () => {
    const raw = Buffer.from('{"a":[1,2]}');
    expect(formatResponseBody(raw, 'application/json', true).toString()).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}\n');
    expect(formatResponseBody(raw, 'application/json', false)).toBe(raw);
    expect(formatResponseBody(Buffer.from('pong'), 'text/plain', true).toString()).toBe('pong');
    expect(formatResponseBody(Buffer.from('{broken'), 'application/json', true).toString()).toBe('{broken');
  });
});

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
