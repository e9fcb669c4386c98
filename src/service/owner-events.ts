// What happens to an owner's bots that the owner may be told of (webhooks):
// the scheduler and qualification emit these; delivery is elsewhere.
export type OwnerEventType = 'match.completed' | 'bot.qualified' | 'bot.failed' | 'bot.struck_out' | 'bot.unreachable';

export interface OwnerEvent {
  type: OwnerEventType;
  ownerId: string;
  botId: string;
  matchId?: string;
  /** Public facts only (placement, strikes' reasons, rating): never a bot's URL or another owner's private data. */
  data: Record<string, unknown>;
}

/** Where emitted events go; a sink must not throw and must not block a match. */
export type OwnerEventSink = (event: OwnerEvent) => void;
