// What the file store holds on disk for its small records: store.json and the
// journal after it. "Changes nothing" and "writes nothing" mean these bytes
// stay the same (store.json alone stays the same through most writes now).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function storeBytes(dir: string): string {
  const journals = readdirSync(dir)
    .filter((f) => /^journal\.\d+\.jsonl$/.test(f))
    .sort();
  return [
    readFileSync(join(dir, 'store.json'), 'utf8'),
    ...journals.map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`),
  ].join('\n');
}
