/** How long a refusal stays said: long enough to read twice, short of the next action. */
export const NOTICE_MS = 4000;

/** When a message shown at some time is due to go: each new one sets its own time, none clears another's. */
export class ShowFor {
  private until = -Infinity;

  constructor(private readonly ms: number) {}

  show(now: number, ms = this.ms): void {
    this.until = now + ms;
  }

  shown(now: number): boolean {
    return now < this.until;
  }

  /** When the message goes (−Infinity when none was shown). */
  get endsAt(): number {
    return this.until;
  }
}
