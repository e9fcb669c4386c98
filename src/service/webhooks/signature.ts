// The Standard Webhooks signature, asymmetric form: `v1a,` and base64 of the
// Ed25519 signature by the platform key over `{webhook-id}.{webhook-timestamp}.{body}`.
// Receivers verify it with the public key of GET /.well-known/svc.json; no
// secret is shared with anyone.
import { sign, verify, type KeyObject } from 'node:crypto';

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The content signed: the id, the timestamp (whole seconds) and the exact body, joined by dots. */
export function signedContent(id: string, timestamp: number, body: string): Buffer {
  return Buffer.from(`${id}.${timestamp}.${body}`, 'utf8');
}

/** The three headers of one attempt (each attempt is signed afresh, with its own timestamp). */
export function webhookHeaders(platformKey: KeyObject, id: string, timestamp: number, body: string): WebhookHeaders {
  const signature = sign(null, signedContent(id, timestamp, body), platformKey).toString('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1a,${signature}` };
}

/** A receiver's check (tests and docs use it): any `v1a,` signature in the space-separated list verifies. */
export function verifyWebhook(publicKey: KeyObject, headers: WebhookHeaders, body: string): boolean {
  const content = signedContent(headers['webhook-id'], Number(headers['webhook-timestamp']), body);
  return headers['webhook-signature'].split(' ').some((part) => {
    const [version, sig] = part.split(',', 2);
    return version === 'v1a' && sig !== undefined && verify(null, content, publicKey, Buffer.from(sig, 'base64'));
  });
}
