// What a finished match tells its seated bots' owners (webhooks): every seat
// of a completed match gets `match.completed`; a seat that resigned on strikes
// gets `bot.struck_out`; a seat whose WebSocket never opened (it could not be
// reached when the match began) gets `bot.unreachable`. Public facts only:
// placements and names are on the public record; no bot URL, no answer bytes.
import type { MatchRecord } from '../../protocol/index';
import type { MatchResult, SeatStats } from '../../runner/index';
import type { OwnerEvent } from '../owner-events';
import type { BotRecord } from '../store/types';

/** `full`: the runner's result (null when the match never ran); `record`: the match as stored, final. */
export function ownerEventsOf(full: MatchResult | null, record: MatchRecord, bots: readonly BotRecord[]): OwnerEvent[] {
  const owners = new Map(bots.map((b) => [b.id, b.ownerId]));
  const events: OwnerEvent[] = [];
  const base = (botId: string) => ({ ownerId: owners.get(botId)!, botId, matchId: record.id });
  if (record.status === 'completed') {
    const players = record.players.map((p) => ({ botId: p.botId, botName: p.botName, placement: p.placement }));
    for (const p of record.players) {
      if (!owners.has(p.botId)) continue;
      events.push({
        type: 'match.completed',
        ...base(p.botId),
        data: {
          botName: p.botName,
          placement: p.placement,
          ratingDelta: p.ratingDelta,
          rated: record.rated !== false,
          endedAt: record.endedAt,
          players,
        },
      });
    }
  }
  for (const seat of full?.seats ?? []) {
    if (!owners.has(seat.botId)) continue;
    if (neverReached(seat)) {
      events.push({
        type: 'bot.unreachable',
        ...base(seat.botId),
        data: {
          botName: seat.botName,
          message: 'the bot could not be reached when its match began (its WebSocket never opened)',
        },
      });
    } else if (seat.resigned) {
      const reasons = seat.strikeLog.map((s) => ({
        reason: s.reason,
        ...(s.code !== undefined ? { code: s.code } : {}),
      }));
      events.push({
        type: 'bot.struck_out',
        ...base(seat.botId),
        data: { botName: seat.botName, strikes: seat.strikeLog.length, reasons },
      });
    }
  }
  return events;
}

/** Its first strike was a failed connect and it never answered a decision. */
function neverReached(seat: SeatStats): boolean {
  const first = seat.strikeLog[0];
  return (
    seat.latenciesMs.length === 0 &&
    first !== undefined &&
    first.reason === 'dropped' &&
    first.detail.startsWith('cannot connect')
  );
}
