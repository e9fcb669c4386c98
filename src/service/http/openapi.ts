// openapi.json, generated from the same route and protocol schemas the server
// validates with (spec section 9): OpenAPI 3.1.1, API version 1, with the game
// rules and the play protocol as components.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { rulesData } from '../../../engine/rules-data';
import { readPackageFile } from '../../docs/package-files';
import { jsonSchema, PUBLISHED_SCHEMA_NAMES } from '../../protocol/json-schema';
import type { AppEnv } from './env';

function rulesText(): string {
  try {
    return readPackageFile('docs/rules.md');
  } catch {
    return 'The rules are in docs/rules.md of the arena package (`arena rules`).';
  }
}

/**
 * The play protocol's shapes as components: the same JSON Schemas `arena schema` prints (OpenAPI 3.1 uses JSON Schema
 * 2020-12).
 */
function protocolComponents(): Record<string, object> {
  const out: Record<string, object> = {};
  for (const name of PUBLISHED_SCHEMA_NAMES) {
    const { $schema: _drop, ...schema } = jsonSchema(name);
    out[name] = schema;
  }
  return out;
}

export function registerProtocolComponents(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'signature', {
    type: 'apiKey',
    in: 'header',
    name: 'x-svc-signature',
    description:
      'Ed25519 request signature: x-svc-key (key id), x-svc-timestamp (unix ms, within 5 minutes) and x-svc-signature = base64(sign("{timestamp}.{METHOD}.{path with query}.{raw body}")).',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'arena_session',
    description: 'Dashboard session from the e-mail sign-in; carries every scope.',
  });
}

export function openApiDocument(app: OpenAPIHono<AppEnv>, baseUrl: string): object {
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.1',
    info: {
      title: 'Bot Arena for pioneers',
      version: '1',
      description: `Management API, public match data and the bot play protocol.\n\n${rulesText()}`,
    },
    servers: [{ url: baseUrl }],
  });
  const components = doc.components ?? {};
  return {
    ...doc,
    components: { ...components, schemas: { ...protocolComponents(), ...(components.schemas ?? {}) } },
    'x-pioneers-rules': rulesData(),
  };
}
