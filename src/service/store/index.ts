// The service's store: the interface (types.ts) and its file implementation.
export * from './types';
export { openFileStore, type FileStore, type FileStoreOptions } from './file-store';
export { backupDataDir, type BackupOptions } from './backup';
export { newId, isSafeId, type IdKind } from './ids';
