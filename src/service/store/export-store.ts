// placeholder replaced below
export async function exportStore(_store: unknown, _dir: string): Promise<void> {
  throw new Error('not yet');
}
