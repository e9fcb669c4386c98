// The python3 the Python starter's tests run: Debian's (CI installs
// python3-websockets) or the first on PATH, with websockets and Python 3.10+.
import { spawnSync } from 'node:child_process';

export function findPython(): string | null {
  for (const py of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(py, ['-c', 'import websockets, sys; assert sys.version_info >= (3, 10)'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return null;
}
