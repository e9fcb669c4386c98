// GET/POST /keys, POST /keys/{id}/revoke: the caller's API keys (metadata only).
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { parsePublicKey } from '../../../keys/index';
import { ApiKeyMetaSchema, DEFAULT_KEY_SCOPES, KeyCreateBodySchema, KeyListSchema } from '../../../protocol/api';
import { StoreConflict } from '../../store/types';
import type { Authenticator } from '../auth';
import { allowanceText, DEFAULT_RATE_LIMITS, type AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError, rateLimited } from '../errors';
import { AUTH_ERRORS, CONFLICT, IdParam, json, NOT_FOUND, SECURITY } from '../openapi-kit';
import { RateLimiter } from '../rate-limit';
import { keyView } from '../views';

/**
 * Keys one account may have that are not revoked: enough for every machine and script, not enough to fill the store.
 */
export const MAX_ACTIVE_KEYS_PER_USER = 50;

export function keyRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, auth: Authenticator): void {
  const { store, log } = deps;
  const creations = new RateLimiter(deps.rateLimits.keyCreations ?? DEFAULT_RATE_LIMITS.keyCreations, deps.now);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/keys',
      tags: ['keys'],
      summary: 'Your API keys, revoked ones included',
      security: SECURITY,
      middleware: [auth.require('keys.read')] as const,
      responses: { 200: json(KeyListSchema, 'Every key of the caller'), ...AUTH_ERRORS },
    }),
    async (c) => c.json({ keys: (await store.listKeys(c.get('caller')!.userId)).map(keyView) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/keys',
      tags: ['keys'],
      summary: 'Register the public half of an Ed25519 key pair',
      security: SECURITY,
      description: `A signed request may give the new key only scopes its own key holds (403 forbidden otherwise), so a key with keys.write cannot mint a stronger key; a dashboard session may give any scope. A public key another account on this server registered is 409 conflict (generate one key per server: a signature names no server). An account may have ${MAX_ACTIVE_KEYS_PER_USER} keys that are not revoked; past that the answer is 409 conflict. It may add ${allowanceText(DEFAULT_RATE_LIMITS.keyCreations)} (429 rate_limited with Retry-After).`,
      middleware: [auth.require('keys.write')] as const,
      request: { body: { content: { 'application/json': { schema: KeyCreateBodySchema } }, required: true } },
      responses: { 201: json(ApiKeyMetaSchema, 'The new key; its id goes in x-svc-key'), ...AUTH_ERRORS, ...CONFLICT },
    }),
    async (c) => {
      const body = c.req.valid('json');
      let raw: Uint8Array;
      try {
        raw = parsePublicKey(body.publicKey);
      } catch (err) {
        throw new ApiError(
          'invalid_request',
          `publicKey: ${err instanceof Error ? err.message : 'not an Ed25519 public key'}`,
        );
      }
      const caller = c.get('caller')!;
      const active = (await store.listKeys(caller.userId)).filter((k) => !k.revokedAt).length;
      if (active >= MAX_ACTIVE_KEYS_PER_USER)
        throw new ApiError(
          'conflict',
          `this account has ${active} active keys, the most it may have; revoke one (arena keys revoke ID) before adding another`,
        );
      const wait = creations.take(caller.userId);
      if (wait > 0)
        throw rateLimited(deps.metrics, `too many keys added to this account lately; retry in ${wait} s`, wait);
      const scopes = [...new Set(body.scopes ?? DEFAULT_KEY_SCOPES)];
      const beyond = scopes.filter((s) => !caller.scopes.has(s));
      if (beyond.length > 0) {
        throw new ApiError(
          'forbidden',
          `key ${caller.keyId} cannot grant ${beyond.join(', ')}: a new key may only get scopes the signing key holds (or use the dashboard)`,
        );
      }
      let key;
      try {
        key = await store.addKey({
          userId: caller.userId,
          name: body.name,
          publicKey: Buffer.from(raw).toString('base64'),
          scopes,
        });
      } catch (err) {
        if (err instanceof StoreConflict && err.what === 'public_key') {
          throw new ApiError(
            'conflict',
            'another account on this server registered this public key; generate a key for this server (arena keys generate) and add that one',
          );
        }
        throw err;
      }
      log({
        event: 'key.add',
        userId: caller.userId,
        keyId: key.id,
        scopes: key.scopes,
        by: caller.keyId ?? 'session',
      });
      return c.json(keyView(key), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/keys/{id}/revoke',
      tags: ['keys'],
      summary: 'Revoke a key at once (it stays listed)',
      security: SECURITY,
      description:
        "A signed request may revoke only keys whose scopes its own key holds (403 forbidden otherwise, nothing changed), the rule POST /keys uses, so a weaker key cannot revoke a stronger one; a dashboard session may revoke any of the account's keys.",
      middleware: [auth.require('keys.write')] as const,
      request: { params: IdParam },
      responses: {
        200: json(ApiKeyMetaSchema, 'The key with revokedAt set (the first time, if revoked twice)'),
        ...AUTH_ERRORS,
        ...NOT_FOUND,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const caller = c.get('caller')!;
      const key = await store.getKey(id);
      if (!key) throw new ApiError('not_found', `no key ${id}`);
      if (key.userId !== caller.userId) throw new ApiError('forbidden', `key ${id} belongs to another account`);
      if (caller.via === 'key') {
        const beyond = key.scopes.filter((s) => !caller.scopes.has(s));
        if (beyond.length > 0) {
          throw new ApiError(
            'forbidden',
            `key ${caller.keyId} cannot revoke key ${id}: it holds ${beyond.join(', ')}, which the signing key does not; a key may revoke only keys whose scopes it holds (or use the dashboard)`,
          );
        }
      }
      const revoked = await store.revokeKey(id);
      log({ event: 'key.revoke', userId: caller.userId, keyId: id, by: caller.keyId ?? 'session' });
      return c.json(keyView(revoked), 200);
    },
  );
}
