// openapi.json as the server publishes it: a valid OpenAPI 3.1.1 document
// (checked by an OpenAPI 3.1 validator library), API version 1, every route
// of the management API with its error body, and the play protocol as
// components whose JSON Schemas accept what the arena really sends and
// refuse what it must not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { protocolExamples } from '../../../src/docs/protocol-examples';
import { startHarness, type Harness } from '../support/api-harness';

describe('GET /openapi.json', () => {
  let h: Harness;
  let doc: any;

  beforeAll(async () => {
    h = await startHarness({ dev: true });
    const res = await h.send('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    doc = res.json;
  });
  afterAll(() => h?.close());

  it('is a valid OpenAPI 3.1.1 document with API version 1', async () => {
    expect(doc.openapi).toBe('3.1.1');
    expect(doc.info.version).toBe('1');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator is not a rubber stamp: a broken copy fails.
    const broken = structuredClone(doc);
    broken.paths['/bots'].post.responses = { 201: { content: {} } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
    expect(doc.servers).toEqual([{ url: h.baseUrl }]);
  });

  it('has every management route, each error answered with the one error body', () => {
    const expected: Array<[string, string]> = [
      ['/health', 'get'],
      ['/me', 'get'],
      ['/me/handle', 'post'],
      ['/keys', 'get'],
      ['/keys', 'post'],
      ['/keys/{id}/revoke', 'post'],
      ['/bots', 'post'],
      ['/bots', 'get'],
      ['/bots/{id}', 'get'],
      ['/bots/{id}', 'patch'],
      ['/bots/{id}', 'delete'],
      ['/bots/{id}/pause', 'post'],
      ['/bots/{id}/resume', 'post'],
      ['/bots/check', 'post'],
      ['/.well-known/svc.json', 'get'],
      ['/auth/email', 'post'],
      ['/auth/callback', 'get'],
      ['/auth/callback', 'post'],
      ['/auth/logout', 'post'],
      ['/openapi.json', 'get'],
      ['/llms.txt', 'get'],
      ['/metrics', 'get'],
      ['/matches', 'get'],
      ['/matches/{id}', 'get'],
      ['/matches/{id}/live', 'get'],
      ['/leaderboard', 'get'],
    ];
    for (const [path, method] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method.toUpperCase()} ${path}`).toBeDefined();
      for (const [status, response] of Object.entries<any>(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema;
        expect(schema, `${method} ${path} ${status}`).toBeDefined();
        const text = JSON.stringify(schema);
        expect(text, `${method} ${path} ${status}`).toMatch(/ErrorBody|"error"/);
      }
    }
    // Signed routes say how to authenticate, and the schemes exist.
    expect(doc.paths['/bots'].post.security).toBeDefined();
    for (const scheme of doc.paths['/bots'].post.security.flatMap((s: object) => Object.keys(s))) {
      expect(doc.components.securitySchemes[scheme], scheme).toBeDefined();
    }
    // Public routes need none.
    expect(doc.paths['/health'].get.security ?? []).toEqual([]);
  });

  it('request bodies carry the schemas the server validates with', () => {
    const body = JSON.stringify(doc.paths['/me/handle'].post.requestBody);
    expect(body).toContain('^[a-z0-9_]{2,32}$');
    const keys = JSON.stringify(doc.paths['/keys'].post.requestBody);
    for (const scope of ['bots.read', 'bots.write', 'keys.read', 'keys.write', 'account.read', 'account.write'])
      expect(keys).toContain(scope);
  });

  it('describes the game rules', () => {
    const text = `${doc.info.description ?? ''}${JSON.stringify(doc['x-pioneers-rules'] ?? '')}`;
    for (const words of ['pioneers', 'settlement', 'road', 'bandit', 'victory'])
      expect(text.toLowerCase()).toContain(words);
  });

  describe('the play protocol as components', () => {
    const names = [
      'DecisionRequest',
      'DecisionResponse',
      'PioneersView',
      'SetupAction',
      'TurnAction',
      'DiscardAction',
      'BanditAction',
      'TradeResponse',
      'Match',
      'MatchEvent',
    ];

    it('names every shape', () => {
      for (const name of names) expect(doc.components.schemas[name], name).toBeDefined();
    });

    it('accepts the frames the arena sends and the answers of a real bot; refuses broken ones', () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      const check = (name: string, value: unknown) => ajv.validate(doc.components.schemas[name], value);
      const answerSchema = {
        setup: 'SetupAction',
        turn: 'TurnAction',
        discard: 'DiscardAction',
        bandit: 'BanditAction',
        trade: 'TradeResponse',
      } as const;
      for (const ex of protocolExamples()) {
        expect(check('DecisionRequest', ex.request), `${ex.kind}: ${ajv.errorsText()}`).toBe(true);
        expect(check('PioneersView', ex.request.view), ex.kind).toBe(true);
        expect(check('DecisionResponse', ex.answer), ex.kind).toBe(true);
        expect(check(answerSchema[ex.kind], ex.answer.action), `${ex.kind}: ${ajv.errorsText()}`).toBe(true);
        expect(check('DecisionRequest', { ...ex.request, seat: 9 }), ex.kind).toBe(false);
        expect(check('DecisionRequest', { ...ex.request, kind: 'chess' }), ex.kind).toBe(false);
      }
      // One of every action of the spec's table, each accepted as a TurnAction.
      const every = [
        { type: 'build_road', edge: 71 },
        { type: 'build_settlement', vertex: 0 },
        { type: 'build_city', vertex: 53 },
        { type: 'buy_dev' },
        { type: 'play_knight', hex: 18 },
        { type: 'play_knight', hex: 3, victim: 2 },
        { type: 'play_roadworks', edges: [1, 2] },
        { type: 'play_windfall', take: { brick: 1, ore: 1 } },
        { type: 'play_embargo', resource: 'wool' },
        { type: 'bank_trade', give: 'grain', get: 'ore' },
        { type: 'offer_trade', give: { brick: 1 }, get: { ore: 1 }, to: 1, talk: 'deal?' },
        { type: 'end_turn', talk: 'gg' },
      ];
      for (const action of every) expect(check('TurnAction', action), `${action.type}: ${ajv.errorsText()}`).toBe(true);
      expect(check('SetupAction', { settlement: 53, road: 71 })).toBe(true);
      expect(check('DiscardAction', { cards: { wool: 2 } })).toBe(true);
      expect(check('BanditAction', { hex: 0, victim: 3, talk: 'sorry' })).toBe(true);
      expect(check('TradeResponse', { accept: false })).toBe(true);
      expect(check('TurnAction', { type: 'build_road', edge: 72 })).toBe(false);
      expect(check('TurnAction', { type: 'teleport' })).toBe(false);
      expect(check('MatchEvent', { seq: 0, at: '2026-01-01T00:00:00Z', kind: 'nonsense' })).toBe(false);
    });
  });

  it('GET /llms.txt maps the artifacts', async () => {
    const res = await h.send('GET', '/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/^# /);
    expect(res.text).toContain(`${h.baseUrl}/openapi.json`);
    expect(res.text).toContain(`${h.baseUrl}/.well-known/svc.json`);
  });
});
