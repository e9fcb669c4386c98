// The hint `arena keys generate` and `arena login` print (issue 27 item 12):
// a request's signature names no server, so a key registered on two servers
// lets one of them replay what it saw to the other within 5 minutes.
import { dirname } from 'node:path';
import { defaultKeyPath } from '../config/paths';

export const ONE_KEY_PER_SERVER =
  'hint: use one key per arena server (a signature names no server, so another server where the same key is registered could be sent a signature this one saw)';

/** Where a per-server key would go: beside the default key, named for the server's host. */
export function perServerKeyPath(env: NodeJS.ProcessEnv, host = '<server host>'): string {
  return `${dirname(defaultKeyPath(env))}/${host}.pem`;
}
