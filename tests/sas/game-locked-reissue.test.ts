// Exception 6F (game locked) while a station stays locked by the casino system's 0x74: SAS 6.02
// §8 ("AFT game lock and status request") has the machine issue 6F as the lock takes effect and
// reissue it every five seconds while it stays locked (so, too, the public Aristocrat platform's
// AftLockHandler: a 5 s exception timer started with the lock, stopped with it). The first 6F is
// the journal's (the lock's fault, host/devices/sas-exceptions.ts); the reissues are the machine's
// own, untagged, and a copy not yet reported when the lock ends is withdrawn (the station is no
// longer locked: reporting it would tell the system so).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SasMachine } from '../../hardware/sas/machine.js';
import type { SasLinkEvent } from '../../hardware/sas/types.js';
import { ManualClock, MemoryAft, MemoryGame } from './fixture.js';
import { appendCrc } from './host/codec.js';

const A = 5;
const OTHER = 1;
const GAME_LOCKED = 0x6f;

function lockedRig() {
  const clock = new ManualClock();
  const game = new MemoryGame();
  const aft = new MemoryAft();
  game.aft = aft;
  const out: number[][] = [];
  const machine = new SasMachine({ address: A, game, clock, write: (b) => out.push([...b]) });
  const events: SasLinkEvent[] = [];
  machine.events.on((e) => events.push(e));
  const send = (bytes: number[]): void => bytes.forEach((b, i) => machine.char(b, i === 0));
  machine.start();
  send([0x80 | OTHER]);
  // The system locks the station for 99.99 s (lock code 00, transfer to the machine, timeout 9999).
  send(appendCrc([A, 0x74, 0x00, 0x01, 0x99, 0x99]));
  assert.equal(out.splice(0)[0]?.[7], 0x00, 'locked');
  // The lock's fault in the journal raises the first 6F (the feed's, tagged); the system reads and acknowledges it.
  machine.raise(GAME_LOCKED, '40.0');
  const general = (): number | undefined => {
    send([0x80 | A]);
    const got = out.splice(0)[0]?.[0];
    send([0x80 | OTHER]);
    return got;
  };
  assert.equal(general(), GAME_LOCKED);
  /** Time passes with the host cycling (another address polled every 500 ms: no loop break). */
  const cycle = (ms: number): void => {
    for (let t = 0; t < ms; t += 500) {
      clock.advance(500);
      send([0x80 | OTHER]);
    }
  };
  return { clock, machine, aft, events, send, out, general, cycle };
}

describe('exception 6F again every 5 s while the station is locked (SAS 6.02 §8, the game lock)', () => {
  it('locked: 6F again 5 s after it took effect, and again 5 s later, while the lock holds', () => {
    const r = lockedRig();
    r.cycle(4_000);
    assert.equal(r.general(), 0x00, 'not before 5 s');
    r.cycle(1_500);
    assert.equal(r.general(), GAME_LOCKED, 'reissued while locked');
    r.cycle(5_500);
    assert.equal(r.general(), GAME_LOCKED, 'and again');
    assert.ok(
      r.events.some((e) => e.type === 'exception-acked' && e.code === GAME_LOCKED && e.tag === '40.0'),
      'the journal’s own 6F acknowledged with its tag',
    );
  });

  it('the lock cancelled (0x74 80): no 6F after it, and a copy not yet reported when it ended is withdrawn', () => {
    const r = lockedRig();
    r.cycle(5_500);
    // A copy raised and not read yet; the system cancels the lock before its next general poll.
    r.send(appendCrc([A, 0x74, 0x80, 0x00, 0x00, 0x00]));
    assert.equal(r.out.splice(0)[0]?.[7], 0xff, 'not locked');
    r.send([0x80 | OTHER]);
    r.cycle(1_000);
    assert.equal(r.general(), 0x00, 'the copy of a lock that ended is not reported');
    r.cycle(11_000);
    assert.equal(r.general(), 0x00, 'never again once unlocked');
  });

  it('a system that never reads the reissue is reported 6F once, not a queue of them', () => {
    const r = lockedRig();
    r.cycle(21_000);
    assert.equal(r.general(), GAME_LOCKED);
    assert.equal(r.machine.exceptions.size, 0, 'one flag, acknowledged: nothing else waits');
  });
});
