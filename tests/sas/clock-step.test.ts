// The wall clock steps (NTP correcting it at boot, a technician setting the time). The link's
// silences (§4.2 no address for 5 s, §4.3 no implied ACK for 30 s) were measured on it: a step back
// of an hour left a system gone silent unreported for that hour, and a step forward reported a
// system still polling as lost. They are on the monotonic clock now.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SasMachine } from '../../hardware/sas/machine.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { MemoryGame } from './fixture.js';

const A = 7;

/** 600 ms after the wall clock stepped by `stepMs`, with the system polling every 30 ms or gone silent. */
async function linkAfterStep(stepMs: number, polling: boolean): Promise<SasLinkEvent['type'][]> {
  const machine = new SasMachine({ address: A, game: new MemoryGame(), silenceMs: 100, chirpMs: 20, write: () => undefined });
  const seen: SasLinkEvent['type'][] = [];
  machine.events.on((e) => seen.push(e.type));
  machine.start();
  machine.char(0x80 | A, true); // a general poll: the system is there
  const polls = polling ? setInterval(() => machine.char(0x80 | A, true), 30) : null;
  const wall = Date.now;
  try {
    await new Promise((r) => setTimeout(r, 50));
    Date.now = () => wall() + stepMs;
    await new Promise((r) => setTimeout(r, 600));
  } finally {
    Date.now = wall;
    if (polls) clearInterval(polls);
    machine.stop();
  }
  return seen.filter((t) => t === 'link-down');
}

describe('SAS link timers and a wall clock that steps', () => {
  it('a system gone silent is reported lost once, the wall clock stepped back an hour', async () => {
    assert.deepEqual(await linkAfterStep(-3_600_000, false), ['link-down']);
  });

  it('a system still polling is not reported lost, the wall clock stepped forward an hour', async () => {
    assert.deepEqual(await linkAfterStep(3_600_000, true), []);
  });
});
