// Serialises DecisionRequest frames. The board's hexes and ports never change
// during a match (only the bandit moves), and they are over half of every
// frame, so they are serialised once per match and spliced in. The output
// parses to exactly the request object (test/runner/request-frame.test.ts).
import type { DecisionRequest } from '../protocol';

export class RequestFrameWriter {
  private hexesJson: string | null = null;
  private portsJson: string | null = null;

  write(req: DecisionRequest): string {
    const { board, ...view } = req.view;
    this.hexesJson ??= JSON.stringify(board.hexes);
    this.portsJson ??= JSON.stringify(board.ports);
    const rest = JSON.stringify(view);
    return (
      `{"id":${req.id},"matchId":${JSON.stringify(req.matchId)},"game":"pioneers","seat":${req.seat},` +
      `"kind":"${req.kind}","deadlineMs":${req.deadlineMs},"view":` +
      `{"board":{"hexes":${this.hexesJson},"ports":${this.portsJson},"bandit":${board.bandit}},${rest.slice(1)}}`
    );
  }
}
