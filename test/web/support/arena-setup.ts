// Accounts and bots for the match tests, made the way an operator and an
// owner would: `arena admin`'s library bootstraps a user and key on the
// store, then bots are registered through the signed API (real URL and
// deploy checks). The bots are the starter example's decide() behind a gate
// the test opens decision by decision, so a match can be caught mid-game.
import { startBot } from '../../../examples/starter-bot/bot';
import { decide } from '../../../examples/starter-bot/bot';
import { serveBot, type RunningBot } from '../../../examples/starter-bot/server';
import { formatPublicKey } from '../../../src/keys/public-key';
import { generateKeyPair } from '../../../src/keys/keypair';
import type { ApiTarget } from '../../../src/client/api';
import { pauseBot, registerBot } from '../../../src/client/owner';
import { addKey, addUser } from '../../../src/service/admin/accounts';
import type { Bot } from '../../../src/protocol/index';
import type { Service } from './service';

/** Lets `allowed` decisions through (all bots together); the rest wait until more are allowed. */
export class DecisionGate {
  private allowed: number;
  private passed = 0;
  private waiting: Array<() => void> = [];
  private firstSeen: (() => void) | null = null;
  /** Resolves when the first decision arrives (a match is running). */
  readonly first: Promise<void>;

  constructor(initially = Infinity) {
    this.allowed = initially;
    this.first = new Promise((r) => (this.firstSeen = r));
  }

  get count(): number {
    return this.passed;
  }

  allow(more: number): void {
    this.allowed += more;
    this.flush();
  }

  open(): void {
    this.allow(Infinity);
  }

  async pass(): Promise<void> {
    this.firstSeen?.();
    this.firstSeen = null;
    if (this.passed < this.allowed) {
      this.passed++;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }

  private flush(): void {
    while (this.waiting.length && this.passed < this.allowed) {
      this.passed++;
      this.waiting.shift()!();
    }
  }
}

export async function gatedStarterBot(gate: DecisionGate): Promise<RunningBot> {
  return serveBot(
    async (req, memo) => {
      await gate.pass();
      return decide(req, memo);
    },
    { name: 'gated-starter' },
  );
}

export { startBot };

export interface Owner {
  email: string;
  handle: string;
  target: ApiTarget;
}

/** An account with a handle and an all-scopes key, as `arena admin user add` and `key add` make them. */
export async function makeOwner(svc: Service, email: string, handle: string): Promise<Owner> {
  await addUser(svc.store, { email, handle });
  const pair = generateKeyPair();
  const key = await addKey(svc.store, { user: email, publicKey: formatPublicKey(pair.publicKey, 'ssh'), name: 'test' });
  return { email, handle, target: { baseUrl: svc.url, keyId: key.id, privateKey: pair.privateKey } };
}

export async function registerBots(owner: Owner, bots: ReadonlyArray<{ name: string; url: string }>): Promise<Bot[]> {
  const out: Bot[] = [];
  for (const b of bots) out.push(await registerBot(owner.target, b));
  return out;
}

export async function pauseAll(owner: Owner, bots: readonly Bot[]): Promise<void> {
  for (const b of bots) await pauseBot(owner.target, b.id);
}
