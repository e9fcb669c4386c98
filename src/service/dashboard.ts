// Serves the web dashboard's built assets (dist/web, made by
// scripts/build-web.mjs) from `serve`: index.html at `/` and at every page
// path of the single-page app, and the hashed assets under /assets/.
// The service never imports src/web: it reads the files the build wrote.
//
// Caching: hashed assets never change under their name, so they are
// `immutable` for a year; index.html is `no-cache` (revalidated by ETag) so
// a new build is picked up at once. Nothing here is per-user.
// Security: a strict Content-Security-Policy (scripts and styles only from
// this origin, no inline script or style, no framing), nosniff, no referrer.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';
import { binaryAssetNames, readPackageAsset } from '../docs/package-files';

/** The page paths of the dashboard's router (src/web/router.tsx); none collides with an API path. */
export const DASHBOARD_PATHS = [
  '/',
  '/sign-in',
  '/account',
  '/account/bots',
  '/account/keys',
  '/account/webhooks',
  '/match/:id',
  '/bot/:id',
] as const;

/**
 * API paths that are also pages (the router shows the page for each): a
 * browser that opens one (its Accept prefers text/html to JSON) gets the
 * dashboard, so a link works whichever form was shared. API clients (JSON,
 * `*\/*`, no Accept) get the API's answer as before.
 */
export const API_PAGE_PATHS = [
  '/leaderboard',
  '/matches',
  '/matches/:id',
  '/bots',
  '/bots/:id',
  '/keys',
  '/me',
] as const;

/**
 * The q a media range list gives `type` (its most specific matching range; 1 for no Accept at all is the caller's
 * business).
 */
function qualityOf(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = -1;
  let q = 0;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const r = range.trim();
    const rank = r === type ? 3 : r === `${major}/*` ? 2 : r === '*/*' ? 1 : 0;
    if (rank === 0 || rank < best) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    const valid = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
    // Of equally specific ranges (a repeat), the higher q.
    q = rank > best ? valid : Math.max(q, valid);
    best = rank;
  }
  return best < 0 ? 0 : q;
}

/** True when an Accept header prefers an HTML page to JSON (a browser's navigation); a tie or no header is JSON. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return qualityOf(accept, 'text/html') > qualityOf(accept, 'application/json');
}

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
};

interface Asset {
  type: string;
  raw: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

interface Loaded {
  mtimeMs: number;
  index: Buffer;
  indexEtag: string;
  assets: Map<string, Asset>;
}

/** The directory of the built dashboard: <package root>/dist/web, from the source tree or from dist/arena.mjs. */
export function defaultWebDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'web');
    dir = dirname(dir);
  }
  return join(process.cwd(), 'dist', 'web');
}

function typeOf(name: string): string {
  const ext = /\.[a-z0-9]+$/i.exec(name)?.[0].toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** A file of the build by its path inside it (`index.html`, `assets/x.js`), or undefined. */
type ReadWebFile = (rel: string) => Buffer | undefined;

function load(dir: string): Loaded {
  const mtimeMs = statSync(join(dir, 'manifest.json')).mtimeMs;
  return loadFrom((rel) => (existsSync(join(dir, rel)) ? readFileSync(join(dir, rel)) : undefined), mtimeMs);
}

function loadFrom(read: ReadWebFile, mtimeMs: number): Loaded {
  const must = (rel: string) => {
    const bytes = read(rel);
    if (!bytes) throw new Error(`the dashboard build has no ${rel}`);
    return bytes;
  };
  const manifest = JSON.parse(must('manifest.json').toString('utf8')) as { files?: Record<string, unknown> };
  const assets = new Map<string, Asset>();
  for (const rel of Object.keys(manifest.files ?? {})) {
    // Only names the build wrote: /assets/<name>, no path tricks.
    if (!/^\/assets\/[A-Za-z0-9._-]+$/.test(rel)) continue;
    const path = rel.slice(1);
    assets.set(rel, { type: typeOf(rel), raw: must(path), gzip: read(`${path}.gz`), br: read(`${path}.br`) });
  }
  const index = must('index.html');
  return {
    mtimeMs,
    index,
    indexEtag: `"${createHash('sha256').update(index).digest('base64url').slice(0, 22)}"`,
    assets,
  };
}

/**
 * The single executable carries the build as assets under dist/web/ (scripts/build-binary.mjs); undefined elsewhere.
 */
function loadFromBinary(): Loaded | null {
  if (!binaryAssetNames().includes('dist/web/manifest.json')) return null;
  return loadFrom((rel) => readPackageAsset(`dist/web/${rel}`), 0);
}

/** Which precompressed form the client accepts: br, then gzip, else none (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

export interface DashboardOptions {
  /** Where the build is; default defaultWebDir(). */
  dir?: string;
}

/**
 * Adds the dashboard's routes to the service's app. Call it before the API
 * routes: its page paths are distinct from every API path, and its check of
 * API_PAGE_PATHS (the page for a browser) must run before their handlers.
 */
export function mountDashboard(app: Hono<any, any, any>, opts: DashboardOptions = {}): void {
  const dir = opts.dir ?? defaultWebDir();
  // In the single executable the build is part of the program and never changes.
  const built = opts.dir === undefined ? loadFromBinary() : null;
  let loaded: Loaded | null = null;
  let checkedAt = 0;
  // Re-read after a rebuild (checked at most once a second); serve the last good build meanwhile.
  const current = (): Loaded | null => {
    if (built) return built;
    const now = Date.now();
    if (loaded && now - checkedAt < 1000) return loaded;
    checkedAt = now;
    try {
      const m = statSync(join(dir, 'manifest.json')).mtimeMs;
      if (!loaded || m !== loaded.mtimeMs) loaded = load(dir);
    } catch {
      // not built (yet), or a build is being written: keep what we have
    }
    return loaded;
  };

  const notBuilt = (c: Context) =>
    c.body(
      '<!doctype html><meta charset="utf-8"><title>Bot Arena</title><p>The dashboard is not built. Run <code>npm run build:web</code> and reload.</p>\n',
      503,
      { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    );

  const page = (c: Context): Response => {
    const l = current();
    if (!l) return notBuilt(c);
    const headers = {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      etag: l.indexEtag,
    };
    if (c.req.header('if-none-match') === l.indexEtag) return c.body(null, 304, headers);
    return c.body(new Uint8Array(l.index), 200, headers);
  };
  // The API paths that are pages: the page for a browser, the API for everyone else, and caches told
  // the answer depends on Accept. Registered before the API's routes (app.ts), so it runs first.
  for (const path of API_PAGE_PATHS) {
    app.use(path, async (c, next) => {
      if ((c.req.method === 'GET' || c.req.method === 'HEAD') && prefersHtml(c.req.header('accept'))) {
        const res = page(c);
        res.headers.append('vary', 'accept');
        if (path === '/matches/:id')
          res.headers.append(
            'link',
            `</matches/${encodeURIComponent(c.req.param('id') ?? '')}>; rel=preload; as=fetch; crossorigin=anonymous`,
          );
        return res;
      }
      await next();
      if (c.req.method === 'GET' || c.req.method === 'HEAD') c.res.headers.append('vary', 'accept');
    });
  }
  for (const path of DASHBOARD_PATHS) {
    if (path === '/match/:id') {
      // The match page needs the match record first: a preload hint starts that request while the
      // script is still loading (the page's fetch, same-origin with credentials, then reuses it).
      app.get(path, (c) => {
        const res = page(c);
        res.headers.append(
          'link',
          `</matches/${encodeURIComponent(c.req.param('id') ?? '')}>; rel=preload; as=fetch; crossorigin=anonymous`,
        );
        return res;
      });
    } else {
      app.get(path, page);
    }
  }

  app.get('/assets/:file', (c) => {
    const l = current();
    const asset = l?.assets.get(`/assets/${c.req.param('file')}`);
    if (!asset) {
      return c.json({ error: { code: 'not_found', message: `no dashboard asset ${c.req.path}` } }, 404, {
        'cache-control': 'no-store',
      });
    }
    const enc = pickEncoding(c.req.header('accept-encoding'));
    const body = enc === 'br' ? asset.br : enc === 'gzip' ? asset.gzip : undefined;
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'content-type': asset.type,
      'cache-control': IMMUTABLE,
      vary: 'accept-encoding',
    };
    if (body && enc) headers['content-encoding'] = enc;
    return c.body(new Uint8Array(body ?? asset.raw), 200, headers);
  });
}
