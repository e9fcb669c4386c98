import type { Scope } from '../../protocol/index';

// The spec's six scopes (src/protocol/api.ts SCOPES), listed here with what
// each allows; web code imports types only from the protocol, keeping zod
// out of the page bundle. test/web/lib/web-lib.test.ts checks the lists agree.
export const SCOPE_TEXT: ReadonlyArray<readonly [Scope, string]> = [
  ['bots.read', 'list and inspect your bots'],
  ['bots.write', 'register, update, pause and remove bots'],
  ['keys.read', 'list your API keys'],
  ['keys.write', 'add and revoke API keys'],
  ['account.read', 'read your account'],
  ['account.write', 'change your handle'],
];
