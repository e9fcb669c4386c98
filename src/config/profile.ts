// The profile written by `arena login`: server URL, key id and key file.
// Mode 0600 because it points at a signing key and names the key id.
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors';
import { makeDirSync } from '../fs/make-dir';

export const ProfileSchema = z.strictObject({
  url: z.string().optional(),
  keyId: z.string().min(1).optional(),
  keyFile: z.string().min(1).optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export { ConfigError };

/** Reads the profile; a missing file is an empty profile, a damaged one an error naming the file. */
export function readProfile(path: string): Profile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read profile ${path}: ${(err as NodeJS.ErrnoException).code ?? 'read failed'}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`profile ${path} is not valid JSON; fix it or run \`arena login\` again`);
  }
  const parsed = ProfileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `profile ${path}: ${issue.path.join('.') || '(top level)'}: ${issue.message}; fix it or run \`arena login\` again`,
    );
  }
  return parsed.data;
}

/** Writes the profile atomically with mode 0600 (directory 0700). */
export function writeProfile(path: string, profile: Profile): void {
  const clean = ProfileSchema.parse(profile);
  makeDirSync(dirname(path), 0o700);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(clean, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600); // umask cannot loosen it, but an odd one could tighten it to unreadable
  renameSync(tmp, path);
}
