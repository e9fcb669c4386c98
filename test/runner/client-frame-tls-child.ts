// Run by client-frame.test.ts with NODE_EXTRA_CA_CERTS set to the test
// certificate (the only way to trust one in Node 20): a wss bot on 127.0.0.1,
// the runner's socket path to it, and the texts the bot received, as JSON.
//   NODE_EXTRA_CA_CERTS=test/fixtures/tls/cert.pem node --import tsx test/runner/client-frame-tls-child.ts
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { generateKeyPair } from '../../src/keys';
import { sendText } from '../../src/runner/client-frame';
import { openBotSocket } from '../../src/runner/connect';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
const texts = ['{"id":1}', JSON.stringify({ pad: 'x'.repeat(2300) }), JSON.stringify({ talk: 'é😀'.repeat(20_000) })];

const server = createServer({ key: fixture('key.pem'), cert: fixture('cert.pem') });
const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 1 << 20 });
const got: string[] = [];
const done = (result: object) => {
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
};
wss.on('connection', (ws) => {
  ws.on('message', (data: Buffer) => {
    got.push(data.toString('utf8'));
    if (got.length === texts.length)
      done({ same: got.every((t, i) => t === texts[i]), lengths: got.map((t) => t.length) });
  });
  ws.on('error', (err) => done({ error: err.message, received: got.length }));
  ws.on('close', (code) => done({ closed: code, received: got.length }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/bot`;
const opened = await openBotSocket({
  url,
  matchId: 'm-tls',
  platformKey: generateKeyPair().privateKey,
  maxPayload: 1 << 20,
  handshakeTimeoutMs: 10_000,
});
if (!opened.ok) done({ failure: opened.failure });
else for (const t of texts) sendText(opened.socket, t);
