// The replay viewer's public API: load a record, rebuild its timeline, draw
// one moment as text, or run the interactive viewer.
export {
  loadRecord,
  parseRecord,
  RecordLoadError,
  DEFAULT_SOURCES,
  fileSource,
  directorySource,
  serverSource,
} from '../arena/load';
export type { LoadedRecord, RecordSource, LoadErrorCode } from '../arena/load';
export { buildTimeline, firstEventOfTurn, ReplayVerifyError } from './timeline';
export type { Frame, SeatFrame, Timeline } from './timeline';
export { resolveStart, StartPointError } from './start';
export { renderPlain, PLAIN_DEFAULT_WIDTH } from './plain';
export { runViewer, colourWanted } from './run';
export { ReplayApp } from './app';
export type { ReplayAppProps } from './app';
export { composeScreen } from './render/screen';
export { renderBoard, boardSize } from './render/board';
export type { BoardScale, BoardState } from './render/board';
export { describeEvent } from './render/events';
export { replaySummary } from './summary';
export type { ReplaySummary } from './summary';
