// What /live answers for a finished match, kept per match: rebuilding it
// means reading the match file and replaying the whole game (the final view),
// milliseconds a request, and a finished match never changes. An LRU bounded
// by entries and by characters, so many finished matches cannot grow it.

/** The /live answers of one finished match. */
export interface FinishedLive {
  /** The stream for a new viewer: `snapshot` then `end`. */
  snapshot: string;
  /** For a viewer that has every event: the final `view` (when there is one) then `end`. */
  tail: string;
  /** Events in the replay: a Last-Event-ID below lastSeq needs the events after it (read from the store). */
  lastSeq: number;
}

export const FINISHED_CACHE_ENTRIES = 512;
/** ~32 MB of JSON text (a snapshot is ~10-30 kB: a view and 50 recent events). */
export const FINISHED_CACHE_CHARS = 32 * 1024 * 1024;

export class FinishedLiveCache {
  // A Map iterates in insertion order: the first key is the least recently used.
  private readonly entries = new Map<string, FinishedLive>();
  private chars = 0;

  constructor(
    private readonly maxEntries = FINISHED_CACHE_ENTRIES,
    private readonly maxChars = FINISHED_CACHE_CHARS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get totalChars(): number {
    return this.chars;
  }

  get(matchId: string): FinishedLive | undefined {
    const hit = this.entries.get(matchId);
    if (hit) {
      this.entries.delete(matchId);
      this.entries.set(matchId, hit);
    }
    return hit;
  }

  set(matchId: string, entry: FinishedLive): void {
    const size = sizeOf(entry);
    if (size > this.maxChars) return; // one that would evict everything is rebuilt each time instead
    const old = this.entries.get(matchId);
    if (old) {
      this.entries.delete(matchId);
      this.chars -= sizeOf(old);
    }
    this.entries.set(matchId, entry);
    this.chars += size;
    for (const [id, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.entries.delete(id);
      this.chars -= sizeOf(e);
    }
  }
}

function sizeOf(e: FinishedLive): number {
  return e.snapshot.length + e.tail.length;
}
