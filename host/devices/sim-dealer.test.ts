// The simulated dealer held after some cards (sim controls): it draws that many, then no card
// until released, whatever the table asks; then it deals on as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { LiveTable } from '../table/runtime.js';
import type { Timers } from '../table/timers.js';
import { SimDealer } from './sim-dealer.js';
import type { TableShoe } from './shoe.js';

/** Timers run by hand: each timer queued on `due` (its delay on `delays`), run in turn by the test. */
function handTimers(due: (() => void)[], delays: number[] = []): Timers {
  return {
    now: () => 0,
    setTimeout: (fn, ms) => {
      delays.push(ms);
      due.push(fn);
      return due.length;
    },
    clearTimeout: () => undefined,
  };
}

/** A table dealing a round that asks for what `cue` says and tells `listeners` of its changes. */
function fakeTable(listeners: (() => void)[], cue: () => unknown) {
  return {
    onChange: (l: () => void) => {
      listeners.push(l);
      return () => undefined;
    },
    reads: { cue, view: () => ({ phase: 'dealing' }), cardsLeftInOldShoe: () => null },
  };
}

/** The dealer over fakes that carry only what SimDealer reads. */
function dealerOver(table: object, shoe: object, timers: Timers, dealMs: number): SimDealer {
  return new SimDealer(table as unknown as LiveTable, shoe as unknown as TableShoe, timers, pino({ level: 'silent' }), dealMs);
}

/** A table that always asks for a card, a shoe whose cards the table handles a moment after each draw, timers run by hand. */
function rig() {
  const listeners: (() => void)[] = [];
  const due: (() => void)[] = [];
  let drawn = 0;
  const shoe = {
    cardsHandled: 0,
    loadsHandled: 1,
    gateOpen: () => true,
    onGateChange: () => () => undefined,
    simulator: () => ({
      drawCard: () => {
        drawn++;
        // The shoe's driver reads the card and the table handles it a moment later.
        due.push(() => {
          shoe.cardsHandled++;
          for (const l of listeners) l();
        });
        return 'AS';
      },
    }),
  };
  const table = fakeTable(listeners, () => ({ kind: 'card', to: 'player' }));
  const timers = handTimers(due);
  // The fakes carry only what SimDealer reads.
  const dealer = dealerOver(table, shoe, timers, 800);
  /** Runs what is due (a dealer's timer, a card handled) in turn, up to `rounds` steps; the cards drawn so far. */
  const run = (rounds = 40): number => {
    for (let i = 0; i < rounds && due.length > 0; i++) due.shift()?.();
    return drawn;
  };
  return { dealer, run };
}

describe('the simulated dealer held after some cards', () => {
  it('deals as the table asks', () => {
    const { dealer, run } = rig();
    dealer.start();
    assert.equal(run(10), 5);
  });

  it('draws the cards it was told to, then none until released, then deals on', () => {
    const { dealer, run } = rig();
    dealer.holdAfterCards(1);
    dealer.start();
    assert.equal(run(), 1, 'one card, then it holds');
    assert.equal(run(), 1, 'still one, however long the table asks');
    dealer.release();
    assert.equal(run(6), 4);
  });

  it('held at 0 draws nothing; a hold set while a card is on its way stops after it', () => {
    const { dealer, run } = rig();
    dealer.holdAfterCards(0);
    dealer.start();
    assert.equal(run(), 0);
    dealer.release();
    assert.equal(run(3), 2);
    dealer.holdAfterCards(0); // the card whose timer is running is not drawn either
    assert.equal(run(), 2);
  });
});

describe('the simulated dealer held after some cards, with burns due', () => {
  /** A table that asks for `cues` in turn (each moved on once the last card is handled), then nothing. */
  function scripted(cues: readonly ('burn' | 'player' | 'banker')[]) {
    const listeners: (() => void)[] = [];
    const due: (() => void)[] = [];
    const drawnTo: string[] = [];
    const shoe = {
      cardsHandled: 0,
      loadsHandled: 1,
      gateOpen: () => true,
      onGateChange: () => () => undefined,
      simulator: () => ({
        drawCard: () => {
          drawnTo.push(cues[shoe.cardsHandled] ?? 'none');
          due.push(() => {
            shoe.cardsHandled++;
            for (const l of listeners) l();
          });
          return 'AS';
        },
      }),
    };
    const table = fakeTable(listeners, () => {
      const to = cues[shoe.cardsHandled];
      return to ? { kind: 'card', to } : null;
    });
    const timers = handTimers(due);
    const dealer = dealerOver(table, shoe, timers, 800);
    const run = () => {
      for (let i = 0; i < 40 && due.length > 0; i++) due.shift()?.();
      return [...drawnTo];
    };
    return { dealer, run };
  }

  it("counts the round's cards only: the shoe's burns are drawn as the table asks, held or not", () => {
    // A test that holds the dealer after a coup's first two cards means cards on the felt; a burn
    // still due when it asked (a new shoe's, Art. 2 n.1) counted among them left one card on the
    // felt, and a dealer held at 0 never dealt the burns the coup waited for (corrections.spec).
    const { dealer, run } = scripted(['burn', 'burn', 'player', 'banker', 'player']);
    dealer.holdAfterCards(1);
    dealer.start();
    assert.deepEqual(run(), ['burn', 'burn', 'player']);
    dealer.release();
    assert.deepEqual(run(), ['burn', 'burn', 'player', 'banker', 'player']);
  });

  it('held at 0 still burns, and holds at the first card of the round', () => {
    const { dealer, run } = scripted(['burn', 'player', 'banker']);
    dealer.holdAfterCards(0);
    dealer.start();
    assert.deepEqual(run(), ['burn']);
  });
});

/**
 * A table as the runtime is one: reading its cue first commits the station commands waiting for
 * their group commit (host/table/command-batch.ts), whose listeners run there and then, the
 * dealer's among them. `cue` is what the table asks for while nothing is handled; each card or
 * shoe handled (a moment after the dealer acts, as the shoe's driver delivers it) moves it on.
 */
function settlingRig(start: 'shuffle' | 'burn') {
  const listeners: (() => void)[] = [];
  const due: (() => void)[] = [];
  let state: 'shuffle' | 'burn' | 'betting' = start;
  /** A bet waits for its group commit: the next read of the table commits it, and tells every listener. */
  let betWaiting = true;
  const acts = { loads: 0, cards: 0 };
  const tell = () => {
    for (const l of [...listeners]) l();
  };
  const shoe = {
    cardsHandled: 0,
    loadsHandled: 1,
    gateOpen: () => true,
    onGateChange: () => () => undefined,
    simulator: () => ({
      loadShoe: () => {
        acts.loads++;
        due.push(() => {
          shoe.loadsHandled++;
          state = 'burn'; // Portugal rule 10: one card burnt before the shoe's first round
          tell();
        });
      },
      drawCard: () => {
        acts.cards++;
        due.push(() => {
          shoe.cardsHandled++;
          state = 'betting';
          tell();
        });
        return 'TD';
      },
    }),
  };
  const table = {
    onChange: (l: () => void) => {
      listeners.push(l);
      return () => undefined;
    },
    reads: {
      cue: () => {
        if (betWaiting) {
          betWaiting = false;
          tell();
        }
        return state === 'shuffle' ? { kind: 'shuffle' } : state === 'burn' ? { kind: 'card', to: 'burn', burnsLeft: 1 } : null;
      },
      view: () => ({ phase: 'betting' }),
      cardsLeftInOldShoe: () => null,
    },
  };
  const timers = handTimers(due);
  const dealer = dealerOver(table, shoe, timers, 0);
  const run = () => {
    for (let i = 0; i < 50 && due.length > 0; i++) due.shift()?.();
    return acts;
  };
  /** A station's bet arrives and waits for its group commit. */
  const bet = () => {
    betWaiting = true;
  };
  return { dealer, run, bet };
}

describe('the simulated dealer and the group commit (issue 52: a Portugal table stopped at its first new shoe)', () => {
  it('loads one new shoe when reading the cue commits a waiting bet', () => {
    const { dealer, run } = settlingRig('shuffle');
    dealer.start();
    assert.deepEqual(run(), { loads: 1, cards: 1 }, 'one shoe loaded, one card burnt');
  });

  it('burns one card, not two, when reading the cue commits a waiting bet (rule 10: one card burnt)', () => {
    const { dealer, run } = settlingRig('burn');
    dealer.start();
    assert.deepEqual(run(), { loads: 0, cards: 1 });
  });

  it('burns one card when a bet waits at the moment its timer reads the cue', () => {
    const { dealer, run, bet } = settlingRig('burn');
    dealer.start();
    bet();
    assert.deepEqual(run(), { loads: 0, cards: 1 });
  });
});

describe('the simulated dealer at a gate that closed under its hand', () => {
  it('waits for the gate rather than loading a new shoe in the middle of a round', () => {
    const { dealer, device, run, tell } = deviceRig();
    // The host still believes the gate open (its lock is on the way); the device is locked already.
    device.locked = true;
    dealer.start();
    assert.deepEqual(run(10), { unreadable: 0, cards: 0, loads: 0 }, 'no new shoe for a locked gate');
    device.locked = false; // the gate opens again: the host tells its listeners
    tell();
    assert.deepEqual(run(1), { unreadable: 0, cards: 1, loads: 0 });
  });
});

/**
 * A shoe as the simulator is one, for a dealer at a gate or told to misread: nothing leaves it while locked,
 * unpowered or empty (a draw says null, a misread false), and each card that leaves is handled by
 * the table a moment later. The test turns the shoe's state by hand; `tell` is the host's word
 * that the gate changed. The table asks for the seat's cards for ever.
 */
function deviceRig() {
  const listeners: (() => void)[] = [];
  const due: (() => void)[] = [];
  const acts = { unreadable: 0, cards: 0, loads: 0 };
  const device = { locked: false, powered: true, left: 10 };
  const leaves = (): boolean => {
    if (device.locked || !device.powered || device.left === 0) return false;
    device.left--;
    due.push(() => {
      shoe.cardsHandled++;
      for (const l of listeners) l();
    });
    return true;
  };
  const shoe = {
    cardsHandled: 0,
    loadsHandled: 1,
    gateOpen: () => true,
    onGateChange: (l: () => void) => {
      listeners.push(l);
      return () => undefined;
    },
    simulator: () => ({
      get locked() {
        return device.locked;
      },
      get powered() {
        return device.powered;
      },
      loadShoe: () => {
        acts.loads++;
        device.left = 10;
        due.push(() => {
          shoe.loadsHandled++;
          for (const l of listeners) l();
        });
      },
      drawCard: () => {
        if (!leaves()) return null;
        acts.cards++;
        return 'AS';
      },
      faults: {
        drawUnreadable: () => {
          if (!leaves()) return false;
          acts.unreadable++;
          return true;
        },
      },
    }),
  };
  const table = fakeTable(listeners, () => ({ kind: 'card', to: 'seat', seat: 1, hand: 0 }));
  /** The delay of each timer the dealer set, in order. */
  const delays: number[] = [];
  const timers = handTimers(due, delays);
  const dealer = dealerOver(table, shoe, timers, 0);
  const run = (steps: number) => {
    for (let i = 0; i < steps && due.length > 0; i++) due.shift()?.();
    return { ...acts };
  };
  const tell = () => {
    for (const l of listeners) l();
  };
  return { dealer, device, run, tell, delays };
}

describe('the simulated dealer told to misread a card', () => {
  it('at a locked shoe waits for the gate and then draws the unreadable card, rather than waiting for a card that never came', () => {
    const { dealer, device, run, tell } = deviceRig();
    device.locked = true; // the host believes the gate open (its lock is on the way); the device is locked already
    dealer.unreadableNext();
    dealer.start();
    assert.deepEqual(run(10), { unreadable: 0, cards: 0, loads: 0 }, 'nothing left the locked shoe');
    device.locked = false;
    tell();
    assert.deepEqual(run(4), { unreadable: 1, cards: 1, loads: 0 }, 'the misread card first, then the dealer deals on');
  });

  it('held after one card, does not spend the hold on a misread that never left a locked shoe', () => {
    const { dealer, device, run, tell } = deviceRig();
    device.locked = true;
    dealer.holdAfterCards(1);
    dealer.unreadableNext();
    dealer.start();
    assert.deepEqual(run(10), { unreadable: 0, cards: 0, loads: 0 });
    device.locked = false;
    tell();
    assert.deepEqual(run(10), { unreadable: 1, cards: 0, loads: 0 }, 'the one card it was let draw, then the hold');
  });

  it('at an unpowered shoe tries again until the power is back, with no word from the host', () => {
    // A framed shoe back within its heartbeat's limit, or an ASCII shoe, tells the host nothing.
    const { dealer, device, run, delays } = deviceRig();
    device.powered = false;
    dealer.unreadableNext();
    dealer.start();
    assert.deepEqual(run(10), { unreadable: 0, cards: 0, loads: 0 });
    assert.ok(delays.length >= 5, 'it kept trying');
    assert.ok(
      delays.slice(1).every((ms) => ms >= 250),
      `not at once, though this dealer deals at 0 ms: ${delays.join(' ')}`,
    );
    device.powered = true;
    const after = run(3);
    assert.equal(after.unreadable, 1, 'the misread card, once the power is back');
    assert.equal(after.loads, 0, 'no new shoe for a shoe without power');
  });

  it('at an empty shoe loads a new one, as for a card, and misreads its first', () => {
    const { dealer, device, run } = deviceRig();
    device.left = 0;
    dealer.unreadableNext();
    dealer.start();
    assert.deepEqual(run(4), { unreadable: 1, cards: 0, loads: 1 });
  });
});
