// The engine's public API. Everything outside engine/ imports from here, or
// from one of the few modules kept out of it on purpose (the layering test
// enforces the list, .dependency-cruiser.cjs ENGINE_DOORS):
//   rules-version.ts  RULES_VERSION alone: `arena --version` names it without building the board's tables;
//   bots/names.ts     the built-in bots' names alone, for help texts and argument checks (the same reason);
//   rules-data.ts, board-data.ts  the rules and the board as printable data, loaded on demand by
//                     `arena rules` / `arena board` and the docs (not needed to play, so not in the bot library);
//   view-bytes.ts     a seat's view written as JSON bytes from the game's arrays (the runner's request frames):
//                     Node's Buffer and a module-level slab, so the browser bundle never loads it.

export * from './types';
export * from './board';
export {
  RULES_VERSION,
  newGame,
  seatOrder,
  pendingDecisions,
  nextSeat,
  submit,
  offerAnswerers,
  answerOpenOffer,
  defaultAction,
  recordStrike,
  resignSeat,
  abortGame,
  isOver,
  outcome,
  gameEvents,
  releaseEvents,
  currentTurn,
  currentSeat,
  cloneGame,
} from './game';
export type { Game, StrikeDetail } from './game';
export { seatView, publicView, seatSecrets } from './view';
export { publicEvent } from './public-events';
export { verifyReplay, stepReplay, checkHeaderSeats, checkHeaderResult } from './replay';
export type { ReplayResult } from './replay';
// The shape check of an answer from outside (what submit runs first), for code that judges recorded answers.
export { parseAnswer } from './shape';
export type { Parsed } from './shape';
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
