/**
 * The named moments a screen passes (`snapshot:table`, `gpu:gpu-context-restored`…) for tests and
 * benches to wait on (`window.__kiosk.events`). Kept only where a browser is driven by automation
 * (Playwright sets `navigator.webdriver`): a kiosk's own screens, left on for weeks, kept every
 * name they ever emitted, about thirty strings a round on a station (a snapshot names itself, its
 * language and its credit), some 1 KB a round that no one read (issue 52, the long-run bench's heap
 * snapshots). A bench that has seen what it waited for stops the log (`quiet`), so that it measures
 * the page as a kiosk runs it.
 */
export interface EventLog {
  /** Every name recorded, oldest first; never trimmed while recording (tests slice it by index). */
  readonly events: string[];
  emit(event: string): void;
  /** Records nothing more and lets go of what it holds. */
  quiet(): void;
}

export function eventLog(record: boolean): EventLog {
  let recording = record;
  const events: string[] = [];
  return {
    events,
    emit(event) {
      if (recording) events.push(event);
    },
    quiet() {
      recording = false;
      events.length = 0;
    },
  };
}
