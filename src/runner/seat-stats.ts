// Per-seat bookkeeping for the match result.
import type { StrikeReason } from '../protocol';
import { STRIKE_REASONS } from '../protocol';
import type { SeatStats } from './types';

export function emptySeatStats(seat: number, botId: string, botName: string): SeatStats {
  const strikes = Object.fromEntries(STRIKE_REASONS.map((r) => [r, 0])) as Record<StrikeReason, number>;
  return {
    seat,
    botId,
    botName,
    strikes,
    resigned: false,
    decisions: 0,
    latenciesMs: [],
    strikeLog: [],
    connections: 0,
    timeUsedMs: 0,
    unrequestedFrames: 0,
    slowestMs: 0,
  };
}

export function totalStrikes(stats: SeatStats): number {
  let n = 0;
  for (const r of STRIKE_REASONS) n += stats.strikes[r];
  return n;
}
