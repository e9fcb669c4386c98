// Live spectating (docs/decisions.md, "live"): one channel per running match.
// Every replay event is filtered to its public form and serialized at most
// ONCE, when a viewer first needs it (most matches have nobody watching); all
// viewers get the same string. A viewer first gets a snapshot of the public
// state, then one message per event; one that reconnects with Last-Event-ID
// gets exactly the events it missed, then the current public view.
import { publicEvent } from '../../../engine/index';
import type { GameEvent, PublicView } from '../../../engine/index';
import type { MatchEvent, MatchPlayer, PublicMatchEvent } from '../../protocol/index';
import { sseMessage } from './sse';

export interface LiveViewer {
  /** Writes one chunk; must not throw. */
  send(chunk: string): void;
  /** Ends the stream (the match ended or the hub is closing). */
  close(): void;
}

export interface LiveMatchHeader {
  id: string;
  game: 'pioneers';
  status: 'running' | 'completed' | 'aborted';
  players: MatchPlayer[];
  startedAt: string;
}

/** How many recent public events a snapshot carries, so a new viewer's log is not empty. */
export const SNAPSHOT_RECENT_EVENTS = 50;

/** The public form of a replay event: what a spectator of a running match may see. */
export function publicMatchEvent(ev: MatchEvent): PublicMatchEvent {
  const p = publicEvent(ev as unknown as GameEvent);
  if (p === (ev as unknown)) return ev;
  // A public form is a MatchEvent with fewer fields (protocol PublicMatchEventSchema).
  return { seq: ev.seq, at: ev.at, ...p } as PublicMatchEvent;
}

export class LiveChannel {
  /** events[seq] = the public form of event seq (for the table-public kinds, the replay's own object). */
  private readonly events: PublicMatchEvent[] = [];
  /** messages[seq] = its SSE text, made the first time a viewer needs it. */
  private readonly messages: Array<string | undefined> = [];
  /** Strikes per seat so far, for the snapshot (a late viewer's recent window may not hold them). */
  private readonly strikes: number[];
  private readonly viewers = new Set<LiveViewer>();
  /** The public view after lastSeq; null from it when not known (a mirror's last events at the end). */
  private view: (() => PublicView | null) | null = null;
  protected ended = false;

  constructor(readonly header: LiveMatchHeader) {
    this.strikes = header.players.map(() => 0);
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  get lastSeq(): number {
    return this.events.length - 1;
  }

  /** New replay events and a way to read the public view after them (read only when someone watches). */
  publish(events: readonly MatchEvent[], view: () => PublicView): void {
    this.append(events, publicMatchEvent, view);
  }

  /**
   * publish with the public form made by `toPublic` (a mirror of another process's channel gets public events already).
   */
  protected append<E extends { seq: number }>(
    events: readonly E[],
    toPublic: (ev: E) => PublicMatchEvent,
    view: () => PublicView | null,
  ): void {
    if (this.ended) return;
    this.view = view;
    const watched = this.viewers.size > 0;
    // A round's messages go to each viewer as one chunk: one socket write per viewer per round, not per message.
    let chunk = '';
    for (const ev of events) {
      if (ev.seq !== this.events.length) continue; // already published, or out of order: never repeat or skip
      const pub = toPublic(ev);
      if (pub.kind === 'timeout') this.strikes[pub.seat] = pub.data.strikes;
      this.events.push(pub);
      if (watched) chunk += this.message(ev.seq);
    }
    if (watched && chunk) {
      const v = view();
      this.broadcast(v === null ? chunk : chunk + sseMessage('view', { seq: this.lastSeq, view: v }));
    }
  }

  /**
   * Adds a viewer. With `lastEventId` (a reconnect) it gets the events after
   * that id and the current view; otherwise a snapshot first.
   */
  subscribe(viewer: LiveViewer, lastEventId: number | null): () => void {
    if (lastEventId !== null && lastEventId <= this.lastSeq) {
      let chunk = '';
      for (let seq = lastEventId + 1; seq <= this.lastSeq; seq++) chunk += this.message(seq);
      const v = this.view?.() ?? null;
      if (v !== null) chunk += sseMessage('view', { seq: this.lastSeq, view: v });
      if (chunk) viewer.send(chunk);
    } else {
      const recent = this.events.slice(Math.max(0, this.events.length - SNAPSHOT_RECENT_EVENTS));
      viewer.send(
        sseMessage('snapshot', {
          match: this.header,
          seq: this.lastSeq,
          view: this.view ? this.view() : null,
          recent,
          strikes: this.strikes,
        }),
      );
    }
    this.viewers.add(viewer);
    return () => {
      this.viewers.delete(viewer);
    };
  }

  /** The public events published so far from `from` on (seq order). */
  eventsFrom(from: number): readonly PublicMatchEvent[] {
    return this.events.slice(from);
  }

  /** The SSE text of event seq, serialized once whoever asks first. */
  protected message(seq: number): string {
    return (this.messages[seq] ??= sseMessage('event', this.events[seq], seq));
  }

  /** The match is over: tell every viewer how it ended and close their streams. */
  end(final: { status: 'completed' | 'aborted'; players: MatchPlayer[]; endedAt: string }): void {
    if (this.ended) return;
    this.ended = true;
    this.broadcast(sseMessage('end', { id: this.header.id, ...final }));
    for (const v of this.viewers) v.close();
    this.viewers.clear();
  }

  /**
   * Closes every viewer's stream without an end (this server is going away; the match is not over): clients resume
   * elsewhere with Last-Event-ID.
   */
  dropViewers(): void {
    for (const v of this.viewers) v.close();
    this.viewers.clear();
  }

  private broadcast(msg: string): void {
    for (const v of this.viewers) v.send(msg);
  }
}

/** The channels of every running match. */
export class LiveHub {
  protected readonly channels = new Map<string, LiveChannel>();

  open(header: LiveMatchHeader): LiveChannel {
    const ch = this.newChannel(header);
    this.channels.set(header.id, ch);
    return ch;
  }

  /**
   * The channel a match played here publishes to (a hub shared by processes makes one that also writes to the
   * database).
   */
  protected newChannel(header: LiveMatchHeader): LiveChannel {
    return new LiveChannel(header);
  }

  /** The channel of a match played in this process. */
  get(matchId: string): LiveChannel | undefined {
    return this.channels.get(matchId);
  }

  /**
   * The channel a viewer of a running match subscribes to, or undefined when
   * the match is not live. Here: one played in this process. `storeSaysRunning`:
   * the store has the match as running (a hub shared by processes may wait a
   * moment for the player's first write).
   */
  async find(matchId: string, _storeSaysRunning = false): Promise<LiveChannel | undefined> {
    return this.channels.get(matchId);
  }

  /** Stops background work (none here); a shared hub first finishes its writes, for up to `waitMs`. */
  async stop(_waitMs?: number): Promise<void> {}

  close(matchId: string, final: Parameters<LiveChannel['end']>[0]): void {
    const ch = this.channels.get(matchId);
    if (!ch) return;
    ch.end(final);
    this.channels.delete(matchId);
  }

  viewerCount(): number {
    let n = 0;
    for (const ch of this.channels.values()) n += ch.viewerCount;
    return n;
  }
}
