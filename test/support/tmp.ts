// Temp dirs and real keys made by the system's ssh-keygen and openssl.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function makeTempDir(prefix = 'arena-keys-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `ssh-keygen -t TYPE -N PASS -f dir/name`; returns the private key path (public is path + '.pub'). */
export function sshKeygen(dir: string, name: string, opts: { type?: string; passphrase?: string } = {}): string {
  const path = join(dir, name);
  execFileSync(
    'ssh-keygen',
    ['-q', '-t', opts.type ?? 'ed25519', '-N', opts.passphrase ?? '', '-C', 'tester@example', '-f', path],
    { stdio: 'ignore' },
  );
  return path;
}

/** `openssl genpkey -algorithm ALG -out dir/name`; returns the path. */
export function opensslGenpkey(dir: string, name: string, algorithm = 'ed25519', extra: string[] = []): string {
  const path = join(dir, name);
  execFileSync('openssl', ['genpkey', '-algorithm', algorithm, ...extra, '-out', path], { stdio: 'ignore' });
  return path;
}

export function opensslPublicPem(privatePath: string): string {
  return execFileSync('openssl', ['pkey', '-in', privatePath, '-pubout'], { encoding: 'utf8' });
}
