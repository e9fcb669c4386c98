// The platform public key (spec: GET /.well-known/svc.json), which bots use to
// verify handshakes. Public, unsigned; callers may cache it.
import { request, type Dispatcher } from 'undici';
import { KeyError } from '../keys/errors';
import { parsePublicKey } from '../keys/public-key';
import { ClientError, unreachable } from './errors';
import { readAnswer } from './read-limited';

export async function fetchPlatformKey(baseUrl: string, dispatcher?: Dispatcher): Promise<Uint8Array> {
  const url = new URL('/.well-known/svc.json', baseUrl.endsWith('/') ? baseUrl : baseUrl + '/').toString();
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, { method: 'GET', dispatcher });
  } catch (err) {
    throw unreachable(url, err);
  }
  const text = (await readAnswer(res.body, url)).toString('utf8');
  if (res.statusCode !== 200) throw new ClientError(`${url} answered HTTP ${res.statusCode}`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ClientError(`${url} did not return JSON`);
  }
  const key = (doc as { publicKey?: unknown } | null)?.publicKey;
  if (typeof key !== 'string') throw new ClientError(`${url} has no "publicKey" string`);
  try {
    return parsePublicKey(key);
  } catch (err) {
    if (err instanceof KeyError) throw new ClientError(`${url}: ${err.message}`);
    throw err;
  }
}
