// A real, throwaway PostgreSQL cluster for tests: initdb in a temp directory,
// listening on 127.0.0.1 at a free port and on a Unix socket in that
// directory, stopped and deleted after. One cluster per test file (initdb and
// start take about half a second); each test gets a database of its own.
// PostgreSQL refuses to run as root, and tests and CI run as root: then the
// cluster runs as the `postgres` user (runuser), which owns the temp directory.
// Missing PostgreSQL is a failure, not a skip: CI installs it (.ci/run).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  /** postgres://arena@127.0.0.1:PORT/DB */
  url(db?: string): string;
  /** A new, empty database; returns its URL. */
  createDatabase(name?: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /** Stops the cluster at once (as a crash would) or cleanly. Idempotent. */
  stop(mode?: 'immediate' | 'fast'): void;
  /** Starts it again after stop (same data, same port). */
  start(): void;
  port: number;
  dir: string;
}

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory, or an Error saying how to install it. */
export function pgBinDir(): string {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'postgres')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  if (versions.length === 0) {
    throw new Error(
      `PostgreSQL is not installed (no ${PG_ROOT}/*/bin/postgres): the Postgres store tests need it; install it with \`apt-get install postgresql\` (.ci/run does)`,
    );
  }
  return join(PG_ROOT, versions[versions.length - 1], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL program as the postgres user when we are root. */
function runPg(bin: string, prog: string, args: string[]): void {
  const cmd = isRoot() ? 'runuser' : join(bin, prog);
  const argv = isRoot() ? ['-u', 'postgres', '--', join(bin, prog), ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  if (r.status !== 0)
    throw new Error(`${prog} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}

const live = new Set<PgCluster>();
// A test process that dies leaves no cluster behind (synchronous: exit handlers cannot wait).
process.once('exit', () => {
  for (const c of live) c.stop('immediate');
});

export interface PostgresOptions {
  /**
   * fsync on (what PostgreSQL acknowledged survives a crash of the machine); off by default: tests run faster, and a
   * killed PostgreSQL or arena still loses nothing acknowledged (commits are written to the OS at once).
   */
  durable?: boolean;
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<PgCluster> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'arena-pg-'));
  chmodSync(dir, 0o700);
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  // Trust on loopback and the socket only: the cluster lives for one test file.
  runPg(bin, 'initdb', [
    '-D',
    data,
    '-U',
    'arena',
    '-A',
    'trust',
    '-N',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-instructions',
  ]);
  const port = await freePort();
  let running = false;
  const cluster: PgCluster = {
    port,
    dir,
    url: (db = 'postgres') => `postgres://arena@127.0.0.1:${port}/${db}`,
    async createDatabase(name = `t_${Math.random().toString(36).slice(2, 12)}`) {
      const c = new pg.Client({ connectionString: cluster.url() });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${name}`);
      } finally {
        await c.end();
      }
      return cluster.url(name);
    },
    async dropDatabase(name) {
      const c = new pg.Client({ connectionString: cluster.url() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
    start() {
      if (running) return;
      const speed = opts.durable ? '' : ' -c fsync=off -c full_page_writes=off';
      runPg(bin, 'pg_ctl', [
        '-D',
        data,
        '-l',
        join(dir, 'log'),
        '-w',
        '-t',
        '60',
        '-o',
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200${speed}`,
        'start',
      ]);
      running = true;
      live.add(cluster);
    },
    stop(mode = 'immediate') {
      if (!running) return;
      running = false;
      try {
        runPg(bin, 'pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
      } catch {
        // Last resort (an exit handler): signal the postmaster ourselves.
        try {
          const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
          if (pid > 0) process.kill(pid, 'SIGQUIT');
        } catch {
          /* already gone */
        }
      }
    },
  };
  cluster.start();
  return cluster;
}

/** Stops and deletes the cluster. */
export function removePostgres(cluster: PgCluster): void {
  cluster.stop('immediate');
  live.delete(cluster);
  rmSync(cluster.dir, { recursive: true, force: true });
}

let shared: Promise<PgCluster> | null = null;

/**
 * One cluster for this test process (fsync on: the crash test uses it), started on first use and removed when the
 * process exits.
 */
export function sharedPostgres(): Promise<PgCluster> {
  if (!shared) {
    shared = startPostgres({ durable: true });
    void shared.then(
      (c) => process.once('exit', () => removePostgres(c)),
      () => {},
    );
  }
  return shared;
}
