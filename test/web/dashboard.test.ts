// The dashboard's build (scripts/build-web.mjs) and how `serve` sends it
// (src/service/dashboard.ts): hashed immutable assets, a revalidated
// index.html for every page path, a strict CSP with nothing inline to allow,
// precompressed bodies that decompress to the same bytes, and the page
// bundle's size budget (issue 11: under 300 KB gzip).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { request } from 'undici';
import { buildWeb, WEB_DIR, type WebManifest } from '../../scripts/build-web.mjs';
import { CONTENT_SECURITY_POLICY, DASHBOARD_PATHS, mountDashboard, pickEncoding } from '../../src/service/dashboard';

let manifest: WebManifest;
const servers: ServerType[] = [];
const temps: string[] = [];

async function start(dir: string): Promise<string> {
  const app = new Hono();
  app.get('/matches', (c) => c.json({ matches: [], next: null }));
  mountDashboard(app, { dir });
  return new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
    servers.push(s);
  });
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body };
}

beforeAll(async () => {
  manifest = await buildWeb({ quiet: true });
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

describe('the build', () => {
  it('writes content-hashed assets and an index.html that loads them, with nothing inline', () => {
    expect(manifest.js).toMatch(/^\/assets\/main-[A-Z0-9]{8}\.js$/);
    expect(manifest.css).toMatch(/^\/assets\/main-[A-Z0-9]{8}\.css$/);
    const html = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
    expect(html).toContain(`<script type="module" src="${manifest.js}"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="${manifest.css}">`);
    // The CSP allows no inline code: every script has a src, no style blocks or attributes, no handlers.
    expect(html.match(/<script\b[^>]*>/g)?.every((tag) => / src="/.test(tag))).toBe(true);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
  });

  it('keeps the page bundle under 300 KB gzip', () => {
    let total = 0;
    for (const f of Object.keys(manifest.files)) total += gzipSync(readFileSync(join(WEB_DIR, f)), { level: 9 }).length;
    expect(total).toBeGreaterThan(10_000); // React DOM is in there: it really is the page
    expect(total).toBeLessThan(300 * 1024);
  });
});

describe('serving it', () => {
  let base: string;
  beforeAll(async () => {
    base = await start(WEB_DIR);
  });

  it('sends index.html at / and every page path, revalidated, with the CSP', async () => {
    const html = readFileSync(join(WEB_DIR, 'index.html'));
    for (const path of [
      '/',
      '/match/m-1',
      '/bot/b-1',
      '/sign-in',
      '/account',
      '/account/bots',
      '/account/keys',
      '/account/webhooks',
    ]) {
      const r = await get(base + path);
      expect(r.status, path).toBe(200);
      expect(r.body.equals(html)).toBe(true);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(DASHBOARD_PATHS).toContain('/match/:id');
  });

  it("hints the match page's record as a preload, encoded so it cannot break out of the header", async () => {
    const r = await get(`${base}/match/m-1`);
    expect(r.headers.link).toBe('</matches/m-1>; rel=preload; as=fetch; crossorigin=anonymous');
    const odd = await get(`${base}/match/${encodeURIComponent('a>, <https://evil.example/>; rel=preload')}`);
    expect(odd.headers.link).toBe(
      `</matches/${encodeURIComponent('a>, <https://evil.example/>; rel=preload')}>; rel=preload; as=fetch; crossorigin=anonymous`,
    );
    expect((await get(`${base}/`)).headers.link).toBeUndefined();
  });

  it('answers 304 to a matching ETag', async () => {
    const first = await get(`${base}/`);
    const again = await get(`${base}/`, { 'if-none-match': first.headers.etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('sends hashed assets as immutable, precompressed when the client accepts it', async () => {
    for (const path of [manifest.js, manifest.css]) {
      const raw = readFileSync(join(WEB_DIR, path));
      const plain = await get(base + path);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(raw)).toBe(true);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-type']).toBe(
        path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(plain.headers.vary).toBe('accept-encoding');
      const br = await get(base + path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);
      const gz = await get(base + path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(raw)).toBe(true);
    }
  });

  it('answers 404 for anything that is not a built asset, and leaves API paths alone', async () => {
    for (const path of [
      '/assets/main-NOPE.js',
      '/assets/..%2Fmanifest.json',
      '/assets/',
      '/manifest.json',
      '/index.html',
    ]) {
      const r = await get(base + path);
      expect(r.status, path).toBe(404);
    }
    const bad = await get(`${base}/assets/main-NOPE.js`);
    expect(JSON.parse(bad.body.toString()).error.code).toBe('not_found');
    const api = await get(`${base}/matches`);
    expect(JSON.parse(api.body.toString())).toEqual({ matches: [], next: null });
  });

  it('says the dashboard is not built, then serves it once it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-web-'));
    temps.push(dir);
    const url = await start(join(dir, 'web'));
    const before = await get(`${url}/`);
    expect(before.status).toBe(503);
    expect(before.body.toString()).toContain('npm run build:web');
    expect(before.headers['cache-control']).toBe('no-store');
    cpSync(WEB_DIR, join(dir, 'web'), { recursive: true });
    const after = await get(`${url}/match/x`);
    expect(after.status).toBe(200);
    expect(after.body.toString()).toContain(manifest.js);
  });
});

describe('pickEncoding', () => {
  it('prefers br, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});
