import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { severityOf } from '../../host/service/event-severity.js';
import { ENTRY_TYPES } from '../../ledger/index.js';
import { INITIAL_CHOICES } from '../../renderer/src/screens/service/pages/choices.js';
import { eventFilter } from '../../renderer/src/screens/service/pages/event-filter.js';
import { EVENT_GROUPS } from '../../renderer/src/screens/service/pages/event-groups.js';
import { macauTime, typedTime } from '../../renderer/src/screens/service/pages/time.js';

describe('event log filters', () => {
  it('every journal entry type is in exactly one type group the screen offers', () => {
    const grouped = Object.values(EVENT_GROUPS).flat() as string[];
    assert.deepEqual([...grouped].sort(), [...ENTRY_TYPES].sort());
    assert.equal(new Set(grouped).size, grouped.length);
  });

  it('a fault entry ranks by its kind', () => {
    assert.equal(severityOf('tilt.raise', 'ledger-integrity'), 'critical');
    assert.equal(severityOf('tilt.clear', 'shoe-alarm'), 'critical');
    assert.equal(severityOf('tilt.raise', 'table-closed'), 'info');
    assert.equal(severityOf('tilt.raise', 'bill-jam'), 'warning');
    assert.equal(severityOf('tilt.raise', 'a-kind-of-a-later-version'), 'warning');
    assert.equal(severityOf('round.void'), 'critical');
  });

  it('a peer table host caught lying about a transfer is critical, like a refused note; a transfer reversed is a warning', () => {
    assert.equal(severityOf('transfer.alarm'), 'critical');
    assert.equal(severityOf('transfer.reverse'), 'warning');
    assert.equal(severityOf('transfer.in'), 'info');
  });

  it('builds the filter from the groups, the severity and the span or the typed minutes', () => {
    const now = Date.UTC(2026, 0, 10, 12, 0, 0);
    assert.deepEqual(eventFilter(INITIAL_CHOICES, now), {});
    assert.deepEqual(eventFilter({ ...INITIAL_CHOICES, eventGroups: ['tilt', 'door'], eventSeverity: 'critical', eventSince: 'shift' }, now), {
      types: ['tilt.raise', 'tilt.clear', 'door.open', 'door.close'],
      severity: 'critical',
      from: '2026-01-10T04:00:00.000Z',
    });
    const from = typedTime('202601100800');
    const to = typedTime('202601100930');
    assert.ok(from !== null && to !== null);
    const f = eventFilter({ ...INITIAL_CHOICES, eventSince: 'custom', eventFrom: from, eventTo: to }, now);
    // Typed in Macau's time (UTC+8), whatever the zone the test runs in.
    assert.equal(f.from, '2026-01-10T00:00:00.000Z');
    assert.equal(f.to, '2026-01-10T01:30:59.999Z', 'the last minute is included whole');
    assert.equal(macauTime(from), '2026-01-10 08:00:00');
    for (const bad of ['202602300800', '202601102500', '2026011008', 'abcdefghijkl']) assert.equal(typedTime(bad), null, bad);
  });
});
