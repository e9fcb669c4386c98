// The script of `arena simulate --workers`' threads (src/sim/worker-main.ts,
// built on its own by scripts/build.mjs): a file beside the bundle, or code
// the single executable carries as an asset.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { IN_BINARY, packageRoot, readPackageAsset } from '../docs/package-files';
import type { WorkerScript } from '../sim/parallel';

/** Its path in the package (and the asset's name in the executable). */
export const SIM_WORKER_SCRIPT = 'dist/sim-worker.cjs';

export function simWorkerScript(): WorkerScript {
  if (IN_BINARY) {
    const code = readPackageAsset(SIM_WORKER_SCRIPT);
    if (!code) throw new Error(`this arena binary was built without ${SIM_WORKER_SCRIPT}; use --workers 1`);
    return { code: code.toString('utf8') };
  }
  const file = join(packageRoot(), SIM_WORKER_SCRIPT);
  if (!existsSync(file)) throw new Error(`${file} is missing (npm run build makes it); use --workers 1`);
  return { file };
}
