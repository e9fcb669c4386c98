// Public documents: /health, the platform key, /openapi.json, /llms.txt, /metrics.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { HealthSchema, PlatformKeyDocSchema } from '../../../protocol/api';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { json } from '../openapi-kit';

/** Each of these is rate-limited per client address, like every route that needs no signature. */
export function metaRoutes(
  app: OpenAPIHono<AppEnv>,
  deps: AppDeps,
  limit: MiddlewareHandler<AppEnv>,
  openapi: () => unknown,
): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/health',
      tags: ['service'],
      summary: 'Liveness',
      middleware: [limit] as const,
      responses: { 200: json(HealthSchema, 'The service is up') },
    }),
    async (c) => {
      const role = deps.role ?? 'all';
      if (!deps.store.ping) return c.json({ status: 'ok' as const, role }, 200);
      const db = await deps.store.ping().then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      );
      return c.json({ status: 'ok' as const, role, db }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/.well-known/svc.json',
      tags: ['service'],
      summary: 'The platform public key that signs every bot handshake',
      middleware: [limit] as const,
      responses: { 200: json(PlatformKeyDocSchema, 'base64 of the raw 32-byte Ed25519 key; cache it') },
    }),
    (c) => c.json({ publicKey: deps.platformPublicKey }, 200, { 'Cache-Control': 'public, max-age=3600' }),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/openapi.json',
      tags: ['service'],
      summary: 'This document: every endpoint, the game rules and the play protocol',
      middleware: [limit] as const,
      responses: { 200: json(z.looseObject({ openapi: z.string() }), 'OpenAPI 3.1.1') },
    }),
    (c) => c.json(openapi() as { openapi: string }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/llms.txt',
      tags: ['service'],
      summary: 'A text map of the artifacts, for language models',
      middleware: [limit] as const,
      responses: {
        200: { content: { 'text/plain': { schema: z.string() } }, description: 'Markdown links to the documents' },
      },
    }),
    (c) =>
      c.text(
        [
          '# Bot Arena (pioneers)',
          '',
          '> A competitive arena where user-hosted WebSocket bots play pioneers, a hex-island resource game.',
          '',
          `- [OpenAPI 3.1 document](${deps.baseUrl}/openapi.json): every endpoint, plus the game rules and the play protocol (DecisionRequest, DecisionResponse, PioneersView, actions, Match, MatchEvent) as components`,
          `- [Platform key](${deps.baseUrl}/.well-known/svc.json): verifies the signed handshake of every bot connection`,
          `- [Leaderboard](${deps.baseUrl}/leaderboard?game=pioneers)`,
          `- [Matches](${deps.baseUrl}/matches): newest first; GET /matches/{id} for one, /matches/{id}/live to follow it (Server-Sent Events)`,
          `- [Health](${deps.baseUrl}/health)`,
          '',
          'Bots: answer GET <url>/ping with "pong" and accept a WebSocket upgrade at <url>; each decision arrives as a JSON frame and is answered with {"id", "action"} before deadlineMs.',
          '',
        ].join('\n'),
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      tags: ['service'],
      summary:
        'Prometheus metrics: requests by route and status, auth failures by reason, rate limits, store writes, matches',
      middleware: [limit] as const,
      responses: { 200: { content: { 'text/plain': { schema: z.string() } }, description: 'Prometheus text format' } },
    }),
    async (c) =>
      c.text(await deps.metrics.registry.metrics(), 200, { 'Content-Type': deps.metrics.registry.contentType }),
  );
}
