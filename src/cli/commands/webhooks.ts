// `arena webhooks add|list|remove|deliveries`: URLs of yours that the server
// tells of events about your bots (POST/GET /webhooks, DELETE /webhooks/{id},
// GET /webhooks/{id}/deliveries). Libraries load when the command runs
// (`await import`), so `arena --help` stays fast (commands/index.ts).
import type { Command } from 'commander';
import { usageError } from '../errors';
import type { CliIO } from '../io';
import { emit, SERVER_HELP, serverOptions, withServer, type ServerFlags } from '../server-call';

// The events (protocol/webhooks.ts WEBHOOK_EVENTS), listed here so help loads
// no zod; test/cli/webhooks.test.ts checks the two lists agree.
export const WEBHOOK_EVENT_NAMES = [
  'match.completed',
  'bot.qualified',
  'bot.failed',
  'bot.struck_out',
  'bot.unreachable',
] as const;

const EVENTS_HELP = `
Events:
  match.completed   a match one of your bots played ended (placement, rating change)
  bot.qualified     a bot passed its qualification match
  bot.failed        a bot failed qualification (the strikes' reasons)
  bot.struck_out    a bot resigned on strikes in a match
  bot.unreachable   a bot could not be reached when its match began

Deliveries are POSTs in the Standard Webhooks format (webhook-id,
webhook-timestamp, webhook-signature; body {type, timestamp, data}), signed
"v1a" (Ed25519) by the server's platform key: verify them with the public
key of GET /.well-known/svc.json. A delivery that gets no 2xx within 10 s is
tried again 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 24 h after the event, then
marked failed. Payloads never carry a bot's URL.`;

/** Event lists as the user types them: space- or comma-separated, each one of the five. */
export function eventList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)) {
    if (!(WEBHOOK_EVENT_NAMES as readonly string[]).includes(e))
      throw usageError(`unknown event "${e}"; events are ${WEBHOOK_EVENT_NAMES.join(', ')}`);
    if (!out.includes(e)) out.push(e);
  }
  if (out.length === 0) throw usageError(`--events needs at least one of ${WEBHOOK_EVENT_NAMES.join(', ')}`);
  return out;
}

export function register(program: Command, io: CliIO): void {
  const webhooks = program
    .command('webhooks')
    // main.ts sets exitOverride after commands exist, so they do not inherit it.
    .exitOverride()
    .summary('URLs the server tells of events about your bots')
    .description(
      'register URLs of yours that the server POSTs signed events to when something happens to your bots (a match ends, qualification passes or fails, a bot is struck out or unreachable); list them, remove them, and see the last 50 deliveries of each with their status',
    )
    .addHelpText('after', EVENTS_HELP);

  serverOptions(
    webhooks
      .command('add')
      .description('register a webhook (POST /webhooks, scope bots.write) and print its id')
      .argument(
        '<URL>',
        'where deliveries go: https at a public address (http and local addresses only on a server in development mode)',
      )
      .requiredOption(
        '--events <EVENT...>',
        `events to send, space- or comma-separated: ${WEBHOOK_EVENT_NAMES.join(', ')}`,
      ),
    'print the Webhook as JSON',
  )
    .addHelpText(
      'after',
      `
An account may have 10 webhooks.
${EVENTS_HELP}

Examples:
  $ arena webhooks add https://hooks.example.com/arena --events match.completed bot.struck_out
  $ arena webhooks add https://ci.example.com/arena --events bot.failed,bot.qualified --json | jq -r .id
${SERVER_HELP}`,
    )
    .action(async (url: string, flags: ServerFlags & { events: string[] }) => {
      const events = eventList(flags.events);
      const { addWebhook } = await import('../../client/webhooks');
      const hook = await withServer(io, flags, (t) =>
        addWebhook(t, { url, events: events as Parameters<typeof addWebhook>[1]['events'] }),
      );
      await emit(io, flags.json, hook, () => `${hook.id}\n`);
      if (!flags.json)
        io.stderr.write(
          `added webhook ${hook.id} for ${hook.events.join(', ')}; see what was sent: arena webhooks deliveries ${hook.id}\n`,
        );
    });

  serverOptions(
    webhooks.command('list').description('list your webhooks (GET /webhooks, scope bots.read), oldest first'),
    'print {"webhooks": Webhook[]} as JSON',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena webhooks list
  $ arena webhooks list --json | jq -r '.webhooks[].id'
${SERVER_HELP}`,
    )
    .action(async (flags: ServerFlags) => {
      const { listWebhooks } = await import('../../client/webhooks');
      const hooks = await withServer(io, flags, (t) => listWebhooks(t));
      await emit(io, flags.json, { webhooks: hooks }, () =>
        hooks.map((h) => `${h.id}  ${h.events.join(',')}  ${h.url}\n`).join(''),
      );
      if (!flags.json && hooks.length === 0)
        io.stderr.write('no webhooks; add one: arena webhooks add URL --events match.completed\n');
    });

  serverOptions(
    webhooks
      .command('remove')
      .description(
        'remove a webhook (DELETE /webhooks/{id}, scope bots.write): nothing more is sent to it, pending retries included',
      )
      .argument('<ID>', 'the webhook id (wh_...)'),
    'print {"removed": ID} as JSON',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ arena webhooks remove wh_Xy3AbCdEfGhIjKlM
${SERVER_HELP}`,
    )
    .action(async (id: string, flags: ServerFlags) => {
      const { removeWebhook } = await import('../../client/webhooks');
      await withServer(io, flags, (t) => removeWebhook(t, id));
      await emit(io, flags.json, { removed: id }, () => '');
      if (!flags.json) io.stderr.write(`removed webhook ${id}\n`);
    });

  serverOptions(
    webhooks
      .command('deliveries')
      .description(
        "a webhook's last 50 deliveries, newest first: event, status, attempts and the receiver's answer (GET /webhooks/{id}/deliveries, scope bots.read)",
      )
      .argument('<ID>', 'the webhook id (wh_...)'),
    'print {"deliveries": WebhookDelivery[]} as JSON (each with the exact body sent)',
  )
    .addHelpText(
      'after',
      `
Status is pending (retries left), delivered (a 2xx came) or failed (every
attempt failed). The webhook-id of a delivery is the same on every retry:
receivers can use it to ignore repeats.

Examples:
  $ arena webhooks deliveries wh_Xy3AbCdEfGhIjKlM
  $ arena webhooks deliveries wh_Xy3AbCdEfGhIjKlM --json | jq '.deliveries[] | select(.status != "delivered")'
${SERVER_HELP}`,
    )
    .action(async (id: string, flags: ServerFlags) => {
      const { listWebhookDeliveries } = await import('../../client/webhooks');
      const deliveries = await withServer(io, flags, (t) => listWebhookDeliveries(t, id));
      await emit(io, flags.json, { deliveries }, () =>
        deliveries
          .map((d) => {
            const answer = d.status === 'delivered' ? `HTTP ${d.responseStatus}` : (d.error ?? '');
            const next = d.nextAttemptAt ? `  next ${d.nextAttemptAt}` : '';
            return `${d.createdAt}  ${d.type}  ${d.status}  ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}  ${answer}${next}  ${d.id}\n`;
          })
          .join(''),
      );
      if (!flags.json && deliveries.length === 0) io.stderr.write(`webhook ${id} has no deliveries yet\n`);
    });
}
