// Service mode's times are Macau's, as the ticket's paper, the station's clock and the back office
// give them, whatever zone the cabinet's system is set to (often UTC). Before, the pages wrote the
// journal's times and read a typed minute in the process's zone: on a cabinet left in UTC the
// Tickets page said a ticket whose paper reads 18:00 was printed at 10:00, and the event log's
// "from 18:00" began 8 hours late.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { macauTime, typedTime } from './time.js';

function inZone(zone: string, run: () => void): void {
  const tz = process.env.TZ;
  process.env.TZ = zone;
  try {
    run();
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
}

describe("service mode's times in Macau's, whatever the cabinet's zone", () => {
  for (const zone of ['UTC', 'America/New_York', 'Asia/Macau']) {
    it(`with TZ=${zone}: a journal time is written, and a typed minute read, as Macau's`, () =>
      inZone(zone, () => {
        assert.equal(macauTime('2026-11-26T10:00:00.000Z'), '2026-11-26 18:00:00');
        assert.equal(macauTime(Date.parse('2026-12-31T16:30:05Z')), '2027-01-01 00:30:05');
        assert.equal(typedTime('202611261800'), Date.parse('2026-11-26T10:00:00Z'));
        assert.equal(typedTime('202701010030'), Date.parse('2026-12-31T16:30:00Z'));
        // A minute that does not exist is refused, as before.
        assert.equal(typedTime('202602300000'), null);
        assert.equal(typedTime('202611262400'), null);
        assert.equal(typedTime('202611261860'), null);
        assert.equal(macauTime('not a time'), 'not a time');
      }));
  }
});
