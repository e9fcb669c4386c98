// The store as the service uses it: every write timed for /metrics.
import type { Store } from '../store/types';
import type { ServiceMetrics } from './metrics';

const WRITES = [
  'createUser', 'setHandle', 'addKey', 'revokeKey', 'addBot', 'updateBot', 'removeBot',
  'addSignInToken', 'consumeSignInToken', 'addSession', 'deleteSession', 'putMatch', 'completeMatch', 'putOwnerMatchData',
] as const satisfies ReadonlyArray<keyof Store>;

export function timedStore(store: Store, metrics: ServiceMetrics): Store {
  const timed: Partial<Record<keyof Store, unknown>> = {};
  for (const op of WRITES) {
    const write = (store[op] as (...args: unknown[]) => Promise<unknown>).bind(store);
    timed[op] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await write(...args);
      } finally {
        metrics.storeWrite(op, (performance.now() - started) / 1000);
      }
    };
  }
  return new Proxy(store, {
    get: (target, prop, receiver) => (prop in timed ? timed[prop as keyof Store] : Reflect.get(target, prop, receiver)),
  });
}
