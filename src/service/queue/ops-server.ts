// The HTTP face of a `scheduler` or `worker` process: only /health (its role
// and whether it reaches the database) and /metrics, for a load balancer's or
// Prometheus's checks. They serve no API: that is the `api` role's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ServeRole } from '../../protocol/api';
import type { Store } from '../store/types';

export interface OpsServer {
  url: string;
  close(): Promise<void>;
}

export async function startOpsServer(opts: {
  host: string;
  port: number;
  role: ServeRole;
  store: Store;
  registry: Registry;
}): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(
        405,
        'application/json',
        JSON.stringify({ error: { code: 'method_not_allowed', message: 'only GET' } }),
      );
    if (path === '/health') {
      void (opts.store.ping?.() ?? Promise.resolve())
        .then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        )
        .then((db) => send(200, 'application/json', JSON.stringify({ status: 'ok', role: opts.role, db })));
      return;
    }
    if (path === '/metrics') {
      void opts.registry.metrics().then(
        (text) => send(200, opts.registry.contentType, text),
        (err: Error) => send(500, 'text/plain', `metrics failed: ${err.message}\n`),
      );
      return;
    }
    send(
      404,
      'application/json',
      JSON.stringify({
        error: {
          code: 'not_found',
          message: `a ${opts.role} process serves only /health and /metrics; the API is the api role's`,
        },
      }),
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
