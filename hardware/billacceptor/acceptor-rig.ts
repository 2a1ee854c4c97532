// What the ID-003 and SSP end-to-end tests share: a real driver over fake USB in front of its
// byte simulator, with every event recorded, and the checks both protocols must pass alike.
import assert from 'node:assert/strict';
import { openBillAcceptor, type OpenedBillAcceptor } from '../open.js';
import { EventRecorder } from '../sim/recorder.js';
import type { Id003Simulator } from './id003/simulator.js';
import type { WireFault } from './sim-controls.js';
import type { SspSimulator } from './ssp/simulator.js';
import type { BillAcceptorEvent, Credit } from './types.js';

/** Short timers: the simulator answers at once, so the tests need not wait for real ones. */
export const FAST = { pollIntervalMs: 2, replyTimeoutMs: 60, reconnectBaseMs: 5, reconnectMaxMs: 40, usbReadTimeoutMs: 30, escrowTimeoutMs: 400 };

interface Simulators {
  id003: Id003Simulator;
  ssp: SspSimulator;
}

export interface AcceptorRig<P extends keyof Simulators> {
  dev: OpenedBillAcceptor;
  sim: NonNullable<OpenedBillAcceptor['simulator']> & Simulators[P];
  rec: EventRecorder<BillAcceptorEvent>;
  credits: Credit[];
}

/** What a test may set: driver options, and the simulator's own through `sim`. */
export type RigOptions = Partial<Parameters<typeof openBillAcceptor>[1]>;

export function acceptorRig<P extends keyof Simulators>(protocol: P, currency: 'HKD' | 'MOP', extra: RigOptions = {}): AcceptorRig<P> {
  const credits: Credit[] = [];
  const rec = new EventRecorder<BillAcceptorEvent>();
  const dev = openBillAcceptor('sim', {
    protocol,
    currency,
    enabled: true,
    ...FAST,
    onCredit: (c) => void credits.push(c),
    ...extra,
    sim: { ...extra.sim, keepReceived: true }, // the tests read what the driver sent
  });
  dev.on(rec.listener);
  return { dev, sim: dev.simulator as AcceptorRig<P>['sim'], rec, credits };
}

export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** Whether the acceptor has reported itself idle and enabled. */
export function untilEnabled(r: AcceptorRig<keyof Simulators>): Promise<void> {
  return r.rec.until(() => r.rec.of('idle').some((e) => e.enabled), 3000, 'enabled');
}

/**
 * One run of the wire-damage property: notes inserted while faults hit the wire at the given
 * poll counts. Every note ends in the cashbox or back with the player, and the credits are
 * exactly the cashbox: none invented, lost or counted twice.
 */
export async function wireDamageRun(
  r: AcceptorRig<keyof Simulators>,
  notes: readonly number[],
  faults: readonly (readonly [WireFault, number])[],
): Promise<void> {
  try {
    await untilEnabled(r);
    let polls = 0;
    const plan = [...faults].sort((a, b) => a[1] - b[1]);
    const iv = setInterval(() => {
      polls++;
      while (plan.length && plan[0]![1] <= polls) r.sim.wireFault(plan.shift()![0]);
    }, 3);
    for (const n of notes) r.sim.insertNote(n);
    try {
      await r.rec.until(() => r.sim.cashbox.length + r.sim.returned.length === notes.length && r.credits.length === r.sim.cashbox.length, 8000, 'settled');
    } finally {
      clearInterval(iv);
    }
    assert.equal(sum(r.credits.map((c) => c.amount)), sum(r.sim.cashbox) * 100);
    assert.equal(new Set(r.credits.map((c) => c.escrowId)).size, r.credits.length);
  } finally {
    await r.dev.close();
  }
}
