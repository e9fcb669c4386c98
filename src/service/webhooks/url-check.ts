// A webhook URL gets the bot URL policy (src/probe/address-policy.ts): in
// production https at public addresses only, resolved once and connected to
// the address checked. Webhooks are plain HTTP POSTs, so ws/wss are refused.
import { checkBotUrl, UrlRejected, type AddressPolicy, type ResolvedAddress } from '../../net/address-policy';

/** Throws UrlRejected (worded for webhooks); returns the address to connect to. */
export async function checkWebhookUrl(url: string, policy: AddressPolicy): Promise<ResolvedAddress & { url: URL }> {
  try {
    const checked = await checkBotUrl(url, policy);
    if (checked.url.protocol !== 'https:' && checked.url.protocol !== 'http:') {
      throw new UrlRejected(
        'unsupported_scheme',
        `webhook URLs must use https (http in development), not ${checked.url.protocol.slice(0, -1)}`,
      );
    }
    return checked;
  } catch (err) {
    if (err instanceof UrlRejected) throw new UrlRejected(err.reason, forWebhooks(err.message), err.detail);
    throw err;
  }
}

/** The policy's messages speak of bots; the rule is the same for webhooks. */
function forWebhooks(message: string): string {
  return message
    .replace(/https or wss \(http or ws in development\)/g, 'https (http in development)')
    .replace(/https or wss/g, 'https')
    .replace(
      /bots authenticate the service by its handshake signature/g,
      'receivers authenticate the service by its signature',
    )
    .replace(/\bthe bot URL\b/g, 'the webhook URL')
    .replace(/\bbot URLs\b/g, 'webhook URLs')
    .replace(/\bproduction bots\b/g, 'production webhooks')
    .replace(/\bbots must\b/g, 'webhooks must');
}
