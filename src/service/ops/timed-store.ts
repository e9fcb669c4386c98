// The store as the service uses it: every write timed for /metrics.
import type { Store } from '../store/types';
import type { ServiceMetrics } from './metrics';

const WRITES = [
  'createUser',
  'setHandle',
  'addKey',
  'revokeKey',
  'addBot',
  'updateBot',
  'startBotVersion',
  'requalifyBot',
  'finishQualification',
  'removeBot',
  'addSignInToken',
  'consumeSignInToken',
  'addSession',
  'deleteSession',
  'putMatch',
  'completeMatch',
  'putOwnerMatchData',
  'addChallenge',
  'settleChallenge',

  'addWebhook',
  'removeWebhook',
  'addWebhookDelivery',
  'updateWebhookDelivery',
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
  // Reads run on the store itself (bound once per method): called through the
  // proxy, each of their own property reads (this.data, ...) would go through
  // the get trap again, which cost a signed request more than its key lookup.
  const bound = new Map<PropertyKey, { value: unknown; fn: unknown }>();
  return new Proxy(store, {
    get: (target, prop, receiver) => {
      if (prop in timed) return timed[prop as keyof Store];
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      const hit = bound.get(prop);
      if (hit && hit.value === value) return hit.fn;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(prop, { value, fn });
      return fn;
    },
  });
}
