// A small real HTTP server that authenticates management requests with the
// library's verifyRequest, the way the service will: raw body bytes, path with
// query from the request line, 401 with the decisions' error body on failure.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyRequest, type KeyRecord } from '../../src/keys/index';

export interface SeenRequest {
  method: string;
  path: string;
  body: Buffer;
  headers: IncomingHttpHeaders;
  keyId?: string;
}

export interface SignedServer {
  url: string;
  keys: Map<string, KeyRecord>;
  seen: SeenRequest[];
  close: () => Promise<void>;
}

export async function startSignedServer(
  keys = new Map<string, KeyRecord>(),
  platformKey?: string,
): Promise<SignedServer> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const send = (status: number, value: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(typeof value === 'string' ? value : JSON.stringify(value));
      };
      if (path === '/health') return send(200, { status: 'ok' });
      if (path === '/.well-known/svc.json') return send(200, { publicKey: platformKey ?? '' });
      const auth = verifyRequest({ method, path, body, headers: req.headers, lookupKey: (id) => keys.get(id) });
      seen.push({ method, path, body, headers: req.headers, keyId: auth.ok ? auth.keyId : undefined });
      if (!auth.ok) return send(401, { error: { code: 'unauthenticated', message: auth.reason } });
      if (path === '/me') return send(200, { id: 'u1', name: 'ada', email: 'ada@example.com', keyId: auth.keyId });
      if (path.startsWith('/echo')) return send(200, { method, path, body: body.toString('base64') });
      if (path === '/text') return send(200, 'pong', 'text/plain');
      if (path === '/boom') return send(500, { error: { code: 'internal', message: 'it broke' } });
      return send(404, { error: { code: 'not_found', message: `no route ${method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    seen,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
