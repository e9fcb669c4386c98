// The engine's public API. Everything outside engine/ imports from here.

export * from './types';
export * from './board';
export {
  RULES_VERSION, newGame, seatOrder, pendingDecisions, nextSeat, submit, offerAnswerers, answerOpenOffer, defaultAction, recordStrike, resignSeat,
  abortGame, isOver, outcome, gameEvents, releaseEvents, currentTurn, currentSeat, cloneGame,
} from './game';
export type { Game, StrikeDetail } from './game';
export { seatView, publicView } from './view';
export { publicEvent } from './public-events';
export { verifyReplay, stepReplay } from './replay';
export type { ReplayResult } from './replay';
export { legalActions, legalActionsFromView, fillLegalActions, randomLegalAction } from './legal';
export type { ViewMemo } from './legal';
export { REJECTION_MESSAGES } from './rejections';
// The engine's own trade answers (frozen): what answerOpenOffer applies.
export { ACCEPT, REJECT } from './canon';
export type { RejectionCode } from './rejections';
export { createBuiltinBot, BUILTIN_BOTS } from './bots/index';
// The documented PRNG (engine/rng.ts), for anything that needs reproducible randomness.
export { stream, nextU32, randInt, shuffle, seededRandom } from './rng';
export type { BuiltinBot, BuiltinBotName } from './bots/index';
