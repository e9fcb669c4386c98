// A bot server for tests whose answers are scripted per request: it lets a
// test play the bot that is late, sends garbage, oversize frames or illegal moves.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { DecisionRequest } from '../../src/protocol/index';

/** `binary`: send the text as a binary frame (which the arena strikes as malformed). */
export type Script = (req: DecisionRequest) => { text: string; delayMs?: number; binary?: boolean } | null;

export async function startScriptedBot(script: Script): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((req, res) => (req.url === '/ping' ? res.end('pong') : res.writeHead(404).end()));
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const req = JSON.parse(data.toString()) as DecisionRequest;
      const answer = script(req);
      if (!answer) return;
      setTimeout(
        () =>
          ws.readyState === ws.OPEN &&
          ws.send(answer.binary ? Buffer.from(answer.text) : answer.text, { binary: answer.binary ?? false }),
        answer.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    },
  };
}

export const answer = (req: DecisionRequest, action: unknown) => ({ text: JSON.stringify({ id: req.id, action }) });
