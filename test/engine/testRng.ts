// A seeded [0, 1) generator for tests that need their own deterministic choices.
import { nextU32, stream } from '../../engine/rng';

export function rng(seed: string): () => number {
  const s = stream(seed, 'test');
  return () => nextU32(s) / 4294967296;
}
