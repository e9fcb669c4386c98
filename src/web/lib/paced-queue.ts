// Shows a live match no faster than people read: steps (events, and the views
// and end that follow them, in stream order) wait in a queue, and an event is
// shown at most `perSecond` times a second; anything else is shown as soon as
// it is reached. `behind` counts the events waiting; jump() shows them all.
export interface PacedStep {
  /** Events cost a slot of time; other steps (a view, the end) none. */
  event: boolean;
  show: () => void;
}

export class PacedQueue {
  private readonly steps: PacedStep[] = [];
  private nextAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  behind = 0;

  constructor(
    private readonly perSecond: number,
    /** Called after each change of `behind`. */
    private readonly onBehind: (behind: number) => void,
  ) {}

  push(step: PacedStep): void {
    const before = this.behind;
    this.steps.push(step);
    if (step.event) this.behind++;
    this.drain(false, before);
  }

  /** Shows every waiting step now. */
  jump(): void {
    this.drain(true);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.steps.length = 0;
  }

  private drain(all: boolean, before = this.behind): void {
    const interval = this.perSecond > 0 ? 1000 / this.perSecond : 0;
    let i = 0;
    for (; i < this.steps.length; i++) {
      const step = this.steps[i];
      if (step.event && interval > 0 && !all) {
        const now = performance.now();
        if (now < this.nextAt) {
          this.timer ??= setTimeout(
            () => {
              this.timer = null;
              this.drain(false);
            },
            Math.ceil(this.nextAt - now),
          );
          break;
        }
        this.nextAt = now + interval;
      }
      if (step.event) this.behind--;
      step.show();
    }
    this.steps.splice(0, i);
    if (all && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.behind !== before || all) this.onBehind(this.behind);
  }
}
