// The file store: the Store contract on a real temp directory, plus what only
// files have: persistence across reopen, the lock, crash states, backups.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileStore } from '../../src/service/store/file-store';
import { storeContract } from './store-contract';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'arena-store-'));
}

storeContract('file store', async () => {
  const dir = await tempDir();
  const store = await openFileStore(join(dir, 'data'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
