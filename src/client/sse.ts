// A Server-Sent Events parser, as the WHATWG HTML standard ("Parsing an event
// stream") defines it: UTF-8 (a leading BOM dropped), lines ended by CRLF, LF
// or CR, comments, `field: value` with one leading space dropped, multi-line
// data joined by LF, the last event id kept across events (an id holding NUL
// ignored), `retry` only when all digits, an event dispatched at a blank line
// and an unfinished one dropped at the end of the stream. Chunks may split a
// line, a CRLF pair or a UTF-8 character anywhere.
//
// undici ships an EventSource, but it reports a failed connection without its
// HTTP status and always waits its own reconnection time; `arena watch` needs
// both (live.ts), so it reads the stream itself and parses it here.

export interface SseEvent {
  /** The `event` field; "message" when none was given. */
  type: string;
  data: string;
  /** The last event id as of this event (ids persist until changed). */
  lastEventId: string;
}

/** An event (its data lines so far plus the line being read) grew past the parser's limit. */
export class SseEventTooLarge extends Error {
  constructor(readonly limitChars: number) {
    super(`an event over ${limitChars} characters`);
    this.name = 'SseEventTooLarge';
  }
}

/** Default limit of one event, far above anything `arena serve` sends (a snapshot is a few KB). */
export const SSE_EVENT_LIMIT_CHARS = 1024 * 1024;

export class SseParser {
  /** The id a reconnect sends as Last-Event-ID. */
  lastEventId = '';
  /** The server's reconnection time (`retry:`), if it gave one. */
  retryMs: number | null = null;

  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  /** How much of `buffer` is known to hold no line break (the next push scans on from there). */
  private scanned = 0;
  private data: string[] = [];
  /** Characters in `data` (the event's data lines so far). */
  private dataChars = 0;
  private type = '';
  private started = false;
  /** The previous chunk ended in CR: a LF starting this one belongs to it. */
  private afterCR = false;

  /**
   * `limitChars`: an event longer than this throws SseEventTooLarge (a stream that is not ours, or broken, never fills
   * memory).
   */
  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly limitChars: number = SSE_EVENT_LIMIT_CHARS,
  ) {}

  /** Feeds bytes (or already decoded text) as they arrive. */
  push(chunk: Uint8Array | string): void {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.afterCR && text.startsWith('\n')) text = text.slice(1);
    this.afterCR = false;
    this.buffer += text;
    let start = 0;
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer.slice(start, i));
      if (c === 13) {
        if (i + 1 === this.buffer.length) this.afterCR = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    this.scanned = this.buffer.length;
    if (this.dataChars + this.buffer.length > this.limitChars) throw new SseEventTooLarge(this.limitChars);
  }

  /** The stream ended: an event without its blank line is dropped (the standard's rule). */
  end(): void {
    this.decoder.decode();
    this.buffer = '';
    this.scanned = 0;
    this.data = [];
    this.dataChars = 0;
    this.type = '';
    this.afterCR = false;
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.charCodeAt(0) === 58 /* : */) return; // comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'event':
        this.type = value;
        break;
      case 'data':
        this.data.push(value);
        this.dataChars += value.length + 1;
        if (this.dataChars > this.limitChars) throw new SseEventTooLarge(this.limitChars);
        break;
      case 'id':
        if (!value.includes('\u0000')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  private dispatch(): void {
    const type = this.type;
    const data = this.data;
    this.type = '';
    this.data = [];
    this.dataChars = 0;
    if (data.length === 0) return;
    this.onEvent({ type: type || 'message', data: data.join('\n'), lastEventId: this.lastEventId });
  }
}
