import { describe, expect, it } from 'vitest';
import { BUILTIN_BOTS, createBuiltinBot } from '../../engine/index';
import {
  ArenaInputError,
  BUILTIN_NAMES,
  fillWithRandom,
  parseBotArg,
  parseBotArgs,
  parseBotUrl,
  redactCredentials,
} from '../../src/arena/bots';
import { planPlay } from '../../src/arena/play-options';

describe('bot arguments', () => {
  it('accepts URLs of the four schemes and the built-ins', () => {
    expect(parseBotArg('http://127.0.0.1:8080').source).toEqual({ type: 'ws', url: 'http://127.0.0.1:8080' });
    expect(parseBotArg('wss://bots.example.com/b?x=1').source).toEqual({
      type: 'ws',
      url: 'wss://bots.example.com/b?x=1',
    });
    expect(parseBotArg('builtin:greedy').source).toEqual({ type: 'builtin', bot: 'greedy' });
  });

  it('takes a name before "=" but not an "=" inside a URL', () => {
    expect(parseBotArg('alice=http://127.0.0.1:9000')).toEqual({
      name: 'alice',
      source: { type: 'ws', url: 'http://127.0.0.1:9000' },
    });
    expect(parseBotArg('http://h:1/?a=b').name).toBeUndefined();
  });

  it('rejects bad input with a message saying what to give', () => {
    expect(() => parseBotArg('ftp://x')).toThrow(/use http, https, ws or wss/);
    expect(() => parseBotArg('builtin:smart')).toThrow(/builtin:random or builtin:greedy/);
    expect(() => parseBotArg('localhost8080')).toThrow(ArenaInputError);
    expect(() => parseBotArg('bad name=http://h:1')).toThrow(/bad bot name/);
  });

  it('refuses user:password in a bot URL, without repeating the password', () => {
    for (const arg of [
      'http://alice:s3cret@127.0.0.1:8080',
      'me=wss://tok3n@bots.example.com/b',
      'ws://:s3cret@h:1/',
    ]) {
      let message = '';
      try {
        parseBotArg(arg);
      } catch (err) {
        expect(err).toBeInstanceOf(ArenaInputError);
        message = (err as Error).message;
      }
      expect(message).toMatch(/carries a user name or password/);
      expect(message).not.toMatch(/s3cret|tok3n/);
    }
    expect(() => parseBotUrl('https://u:p@bot.example.com')).toThrow(ArenaInputError);
    // A URL that does not even parse is not echoed with its credentials either.
    expect(() => parseBotArg('http://u:s3cret@exa mple')).toThrow(/^(?!.*s3cret)/);
    expect(redactCredentials('x http://u:p@h/ and wss://t@h2')).toBe('x http://***@h/ and wss://***@h2');
  });

  it("accepts exactly the engine's built-in bots (one list) and each of them can play", () => {
    expect(BUILTIN_NAMES).toBe(BUILTIN_BOTS);
    for (const name of BUILTIN_BOTS) {
      expect(parseBotArg(`builtin:${name}`).source).toEqual({ type: 'builtin', bot: name });
      expect(createBuiltinBot(name, 'x').name).toBe(name);
    }
  });

  it('names bots by host:port or built-in name and suffixes duplicates', () => {
    const bots = parseBotArgs(['http://127.0.0.1:8080', 'builtin:random', 'builtin:random', 'http://127.0.0.1:8080']);
    expect(bots.map((b) => b.name)).toEqual(['127.0.0.1:8080', 'random', 'random#2', '127.0.0.1:8080#2']);
    expect(new Set(bots.map((b) => b.id)).size).toBe(4);
  });

  it('never lets a generated name collide with a chosen one', () => {
    const bots = parseBotArgs(['random#2=builtin:greedy', 'builtin:random', 'builtin:random']);
    expect(bots.map((b) => b.name)).toEqual(['random#2', 'random', 'random#3']);
    expect(() => parseBotArgs(['a=builtin:random', 'a=builtin:greedy'])).toThrow(/given twice/);
  });

  it('fills a short field with built-in random bots', () => {
    const bots = parseBotArgs(['builtin:random']);
    expect(fillWithRandom(bots, 3).map((b) => b.name)).toEqual(['random#2', 'random#3']);
  });
});

describe('planPlay', () => {
  it('defaults: 3 seats under 4 bots, 4 seats from 4, a generated seed', () => {
    const p = planPlay({ bots: ['builtin:random', 'builtin:random', 'builtin:random'] }, () => 'gen');
    expect(p).toMatchObject({
      seats: 3,
      games: 10,
      seed: 'gen',
      seedGenerated: true,
      concurrency: 4,
      deadlineMs: 5000,
      filled: [],
    });
    expect(planPlay({ bots: Array(5).fill('builtin:random') }).seats).toBe(4);
  });

  it('generates a 128-bit seed from the system CSPRNG, different every time', () => {
    const seeds = Array.from({ length: 20 }, () => planPlay({ bots: ['builtin:random'] }).seed);
    for (const s of seeds) expect(s).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(seeds).size).toBe(seeds.length);
    expect(planPlay({ bots: ['builtin:random'], seed: 'mine' })).toMatchObject({ seed: 'mine', seedGenerated: false });
  });

  it('refuses credentials in a bot URL as bad input', () => {
    expect(() => planPlay({ bots: ['http://u:pw@127.0.0.1:9', 'builtin:random'] })).toThrow(ArenaInputError);
  });

  it('fills one bot up to the table and says which bots it added', () => {
    const p = planPlay({ bots: ['http://127.0.0.1:9'], seats: '4', seed: 's' });
    expect(p.bots).toHaveLength(4);
    expect(p.filled.map((b) => b.name)).toEqual(['random', 'random#2', 'random#3']);
    expect(p.seedGenerated).toBe(false);
  });

  it('rejects bad numbers and empty input clearly', () => {
    expect(() => planPlay({ bots: [] })).toThrow(/no bots given/);
    expect(() => planPlay({ bots: ['builtin:random'], games: '0' })).toThrow(/--games must be a whole number from 1/);
    expect(() => planPlay({ bots: ['builtin:random'], games: '3.5' })).toThrow(/--games/);
    expect(() => planPlay({ bots: ['builtin:random'], seats: '5' })).toThrow(
      /--seats must be a whole number from 3 to 4/,
    );
    expect(() => planPlay({ bots: ['builtin:random'], deadlineMs: '-1' })).toThrow(/--deadline-ms/);
    expect(() => planPlay({ bots: ['builtin:random'], concurrency: 'lots' })).toThrow(/--concurrency/);
  });
});
