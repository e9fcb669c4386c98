// The match runner: plays one match between WebSocket and built-in bots.
export {
  runMatch,
  ANSWER_PREVIEW_BYTES,
  DEFAULT_DEADLINE_MS,
  DEFAULT_TIME_BANK_MS,
  DEFAULT_WALL_CLOCK_MS,
  STRIKES_TO_RESIGN,
} from './run-match';
export {
  openBotSocket,
  FRAME_CEILING_BYTES,
  type AddressGate,
  type CheckedAddress,
  type ConnectFailure,
  type OpenBotSocketOptions,
  type OpenBotSocketResult,
} from './connect';
export { toWebSocketUrl } from './ws-url';
export type { SeatSource, MatchEntrant, RunMatchOptions, SeatStats, StrikeRecord, MatchResult } from './types';
export { boundDebugNote, withoutNotes, DEBUG_NOTE_BYTES, type DebugNote } from './debug-note';
