// A record, loaded and replayed: what `arena replay` shows. The header is
// checked by its schema; the events by the engine's verifying replay, which
// regenerates every one and requires the record's to equal it (stricter than
// the event schemas, and it spares building them at start-up); the kinds whose
// data the replay only echoes, and any record that fails, go through the full
// schema, so a bad record gets the message a full check gives.
import { confirmReplayedRecord, loadRecord, parseRecordHeader, type RecordSource } from '../arena/load';
import type { MatchRecord } from '../protocol/match';
import { buildTimeline, type Timeline, type TimelineOptions } from './timeline';

export async function openTimeline(
  ref: string,
  sources: readonly RecordSource[],
  opts: TimelineOptions = {},
): Promise<Timeline> {
  return (await openVerifiedRecord(ref, sources, opts)).timeline;
}

/** The record and its timeline, verified alike (`arena replay --web` serves the record). */
export async function openVerifiedRecord(
  ref: string,
  sources: readonly RecordSource[],
  opts: TimelineOptions = {},
): Promise<{ record: MatchRecord; timeline: Timeline }> {
  const { record, origin } = await loadRecord(ref, sources, parseRecordHeader);
  let timeline: Timeline;
  try {
    timeline = buildTimeline(record, opts);
  } catch (err) {
    await confirmReplayedRecord(record, origin, false);
    throw err;
  }
  await confirmReplayedRecord(record, origin, true);
  return { record, timeline };
}
