// Stations' screens as a test sees them: an outbox and a composer each, fed by the hub's
// subscription with patches and all, so a test checks what each screen ends up showing rather
// than what the hub meant to send.
import assert from 'node:assert/strict';
import { decodeHostMessage, stationOf, ViewComposer, type StationState, type ViewName } from '../../protocol/index.js';
import { Outbox, type Update } from '../screens/outbox.js';
import type { TestTable } from './table-kit.js';

/** The own part of a station's view: the whole less the public parts and the recall's list, sent apart. */
export function ownPart(s: StationState): string {
  const { round: _round, roads: _roads, history: _history, recall: _recall, ...own } = s;
  return JSON.stringify(own);
}

/**
 * Every station's screen (seated and remote) subscribed to the hub; `shown` holds what each
 * composed last. `handed` is told of each update the hub hands a screen, before its outbox.
 */
export function stationScreens(t: TestTable, handed?: (view: ViewName, slot: string, update: Update) => void) {
  const views = [...t.hub.views().filter((v) => stationOf(v) !== null), ...t.hub.remoteViews()];
  const shown = new Map<ViewName, StationState>();
  for (const view of views) {
    const composer = new ViewComposer(view);
    const outbox = new Outbox({
      write: (message, written) => {
        const m = decodeHostMessage(message.text);
        assert.ok(m.ok, `${view}: a message that fails its schema: ${message.text}`);
        const composed = composer.take(m.message);
        if (composed?.state.kind === 'station') shown.set(view, composed.state);
        written();
      },
    });
    t.hub.subscribe(view, `screen:${view}`, {
      deliver: (slot, update) => {
        handed?.(view, slot, update);
        outbox.latest(slot, update);
      },
    });
  }
  return { views, shown };
}
