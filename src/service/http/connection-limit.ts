// How many connections `arena serve` holds open, so a flood of slow or idle
// clients cannot take every file descriptor (issue 27): the bots' sockets of
// running matches, the store's files and the live streams need theirs.
//
// Two budgets. Request connections (everything but live streams): at most
// maxConnections, and maxConnectionsPerAddress from one client address (an
// IPv6 client by its /64). Live streams, which last as long as their match:
// at most maxLiveStreams; a connection moves to that budget when its request
// becomes a stream, so a flood of requests never pushes out the viewers. A
// connection past a budget is answered 429 at once and closed. The address
// is the socket's own: X-Forwarded-For is a request header, unknown when a
// connection is accepted (behind a proxy every connection is the proxy's).
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { limitKey } from './client-limit';

export interface ConnectionLimits {
  /** Request connections open at once (live streams aside). */
  maxConnections: number;
  /** Request connections open at once from one client address (IPv6: its /64). */
  maxConnectionsPerAddress: number;
  /** Live streams open at once, server-wide (each address may hold MAX_LIVE_STREAMS_PER_ADDRESS). */
  maxLiveStreams: number;
}

/** Sockets a running match holds: one per seat (4 at most). */
const SOCKETS_PER_MATCH = 4;
/** The store's files, the log, DNS, deploy checks, the platform key: what the process needs besides connections. */
const RESERVED_FDS = 256;
const MAX_DEFAULT_CONNECTIONS = 10_000;
/** The open-file limit when it cannot be read (not Linux). */
const FALLBACK_FD_LIMIT = 1024;

/** The process's open-file limit (soft RLIMIT_NOFILE; Node raises it to the hard limit at start). */
export function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.trim().split(/\s+/)[3];
    const n = soft === 'unlimited' ? Infinity : Number(soft);
    return Number.isFinite(n) && n > 0 ? n : soft === 'unlimited' ? 1_048_576 : FALLBACK_FD_LIMIT;
  } catch {
    return FALLBACK_FD_LIMIT;
  }
}

/**
 * Defaults from the open-file limit: what is left after the matches' sockets
 * (4 per match) and 256 for files goes half to request connections (at most
 * 10,000) and a quarter to live streams; the last quarter is headroom. One
 * address may hold an eighth of the request connections (8 to 256); behind
 * a proxy (trustProxy) every connection comes from it, so all of them.
 */
export function defaultConnectionLimits(fdLimit: number, maxMatches: number, trustProxy: boolean): ConnectionLimits {
  const left = Math.max(64, fdLimit - SOCKETS_PER_MATCH * maxMatches - RESERVED_FDS);
  const maxConnections = Math.min(MAX_DEFAULT_CONNECTIONS, Math.max(16, Math.floor(left / 2)));
  const maxLiveStreams = Math.min(MAX_DEFAULT_CONNECTIONS, Math.max(8, Math.floor(left / 4)));
  const maxConnectionsPerAddress = trustProxy
    ? maxConnections
    : Math.min(maxConnections, Math.max(8, Math.min(256, Math.floor(maxConnections / 8))));
  return { maxConnections, maxConnectionsPerAddress, maxLiveStreams };
}

interface Tracked {
  address: string;
  live: boolean;
}

export type RefusalReason = 'server' | 'address';

const refusal = (message: string) => {
  const body = JSON.stringify({ error: { code: 'rate_limited', message } });
  return `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};
const REFUSED: Record<RefusalReason, string> = {
  server: refusal('the server holds as many connections as it may (serve --max-connections); retry in 1 s'),
  address: refusal(
    'too many connections open from this address (serve --max-connections-per-address); close some, then retry',
  ),
};

export class ConnectionGate {
  private readonly sockets = new WeakMap<Socket, Tracked>();
  private readonly byAddress = new Map<string, number>();
  private requests = 0;
  private live = 0;
  private server: Server | null = null;
  private idleClosedAt = 0;

  constructor(
    readonly limits: ConnectionLimits,
    private readonly onRefuse: (reason: RefusalReason) => void = () => {},
  ) {}

  /** Counts request connections and live streams open now. */
  get open(): { requests: number; live: number } {
    return { requests: this.requests, live: this.live };
  }

  /** Puts the gate in front of the HTTP server's own connection handling. */
  attach(server: Server): void {
    this.server = server;
    const handlers = server.listeners('connection') as Array<(socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (!this.admit(socket)) return;
      for (const h of handlers) h.call(server, socket);
    });
  }

  /**
   * The request on `socket` becomes a live stream: it leaves the request budget for the live one. False when that is
   * full.
   */
  toLive(socket: Socket): boolean {
    const t = this.sockets.get(socket);
    if (!t || t.live) return true;
    if (this.live >= this.limits.maxLiveStreams) return false;
    this.leave(t);
    t.live = true;
    this.live++;
    return true;
  }

  private admit(socket: Socket): boolean {
    const address = limitKey(socket.remoteAddress ?? 'unknown');
    const reason: RefusalReason | null =
      this.requests >= this.limits.maxConnections
        ? 'server'
        : (this.byAddress.get(address) ?? 0) >= this.limits.maxConnectionsPerAddress
          ? 'address'
          : null;
    if (reason) {
      this.refuse(socket, reason);
      return false;
    }
    const t: Tracked = { address, live: false };
    this.sockets.set(socket, t);
    this.requests++;
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      if (t.live) this.live--;
      else this.leave(t);
    });
    return true;
  }

  private leave(t: Tracked): void {
    this.requests--;
    const n = (this.byAddress.get(t.address) ?? 1) - 1;
    if (n > 0) this.byAddress.set(t.address, n);
    else this.byAddress.delete(t.address);
  }

  private refuse(socket: Socket, reason: RefusalReason): void {
    this.onRefuse(reason);
    socket.on('error', () => {});
    // Whatever it sends is read and dropped, so its close is seen; one that does not close is cut
    // after 2 s (a timer, not socket.setTimeout: a client that keeps sending would reset that).
    socket.resume();
    const cut = setTimeout(() => socket.destroy(), 2000);
    socket.once('close', () => clearTimeout(cut));
    socket.end(REFUSED[reason]);
    // Full: idle keep-alive connections make way for new ones (at most once a second: it walks every connection).
    const now = Date.now();
    if (reason === 'server' && now - this.idleClosedAt >= 1000) {
      this.idleClosedAt = now;
      this.server?.closeIdleConnections();
    }
  }
}
