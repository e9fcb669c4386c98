// A running match played by another process, as this process's viewers see
// it: a LiveChannel fed with the public events and views the player wrote to
// the database (pg-hub.ts), so a snapshot, a Last-Event-ID resume and the end
// are served exactly as for a match played here.
import type { PublicView } from '../../../engine/index';
import type { PublicMatchEvent } from '../../protocol/index';
import { LiveChannel, type LiveMatchHeader, type LiveViewer } from './hub';
import { sseMessage } from './sse';

/**
 * How far past this mirror a Last-Event-ID may be and still wait here for the
 * events in between. The player's own viewers see an event before the
 * database has it, so one that moves to another process may be a few rounds
 * ahead of that process; further ahead is no id of this match, and gets a snapshot.
 */
export const MIRROR_AHEAD_EVENTS = 2_000;

interface Waiting {
  viewer: LiveViewer;
  after: number;
  unsubscribe: (() => void) | null;
}

export class MirrorChannel extends LiveChannel {
  private readonly waiting = new Set<Waiting>();
  /** When the last viewer left (ms), or null while someone watches. */
  idleSince: number | null = Date.now();

  constructor(
    header: LiveMatchHeader,
    private readonly onViewers: () => void = () => {},
  ) {
    super(header);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  override get viewerCount(): number {
    return super.viewerCount + this.waiting.size;
  }

  /**
   * Public events as the player wrote them (seq order; ones already here are skipped) and the public view after the
   * last (null: none, no view message).
   */
  add(events: readonly PublicMatchEvent[], view: PublicView | null): void {
    if (events.length === 0) return;
    this.append(
      events,
      (e) => e,
      () => view,
    );
    for (const w of this.waiting) {
      if (w.after > this.lastSeq) continue;
      this.waiting.delete(w);
      w.unsubscribe = super.subscribe(w.viewer, w.after);
    }
  }

  override subscribe(viewer: LiveViewer, lastEventId: number | null): () => void {
    let unsubscribe: () => void;
    if (
      !this.ended &&
      lastEventId !== null &&
      lastEventId > this.lastSeq &&
      lastEventId - this.lastSeq <= MIRROR_AHEAD_EVENTS
    ) {
      // Ahead of the database: nothing to send until the events after lastEventId are here.
      const w: Waiting = { viewer, after: lastEventId, unsubscribe: null };
      this.waiting.add(w);
      unsubscribe = () => {
        this.waiting.delete(w);
        w.unsubscribe?.();
      };
    } else {
      unsubscribe = super.subscribe(viewer, lastEventId);
    }
    this.idleSince = null;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      unsubscribe();
      if (this.viewerCount === 0) this.idleSince = Date.now();
      this.onViewers();
    };
  }

  override dropViewers(): void {
    super.dropViewers();
    for (const w of this.waiting) w.viewer.close();
    this.waiting.clear();
  }

  override end(final: Parameters<LiveChannel['end']>[0]): void {
    if (this.ended) return;
    super.end(final);
    const msg = sseMessage('end', { id: this.header.id, ...final });
    for (const w of this.waiting) {
      w.viewer.send(msg);
      w.viewer.close();
    }
    this.waiting.clear();
  }
}
