// GET /me, POST /me/handle: the caller's own account.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { HandleBodySchema, UserSchema } from '../../../protocol/api';
import { StoreConflict } from '../../store/types';
import type { Authenticator } from '../auth';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { AUTH_ERRORS, CONFLICT, json, SECURITY } from '../openapi-kit';
import { userView } from '../views';

export function accountRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps, auth: Authenticator): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/me',
      tags: ['account'],
      summary: 'Your account',
      security: SECURITY,
      middleware: [auth.require('account.read')] as const,
      responses: { 200: json(UserSchema, 'The caller'), ...AUTH_ERRORS },
    }),
    async (c) => {
      const user = await deps.store.getUser(c.get('caller')!.userId);
      if (!user) throw new ApiError('unauthenticated', 'the account of this key no longer exists');
      return c.json(userView(user), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/me/handle',
      tags: ['account'],
      summary: 'Pick or change your public handle',
      security: SECURITY,
      middleware: [auth.require('account.write')] as const,
      request: { body: { content: { 'application/json': { schema: HandleBodySchema } }, required: true } },
      responses: { 200: json(UserSchema, 'The updated account'), ...AUTH_ERRORS, ...CONFLICT },
    }),
    async (c) => {
      const { handle } = c.req.valid('json');
      const userId = c.get('caller')!.userId;
      try {
        const user = await deps.store.setHandle(userId, handle);
        deps.log({ event: 'account.handle', userId, handle });
        return c.json(userView(user), 200);
      } catch (err) {
        if (err instanceof StoreConflict)
          throw new ApiError('conflict', `the handle @${handle} is taken; pick another`);
        throw err;
      }
    },
  );
}
