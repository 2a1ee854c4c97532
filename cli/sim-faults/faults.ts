import type { LinkFault } from './fake-upstream.js';

/** Every fault the simulation injects, by the name the trace and the campaign table use. */
export const FAULT_KINDS = [
  'kill-before-commit',
  'kill-after-commit',
  'sqlite-full',
  'sqlite-ioerr',
  'clock-step-back',
  'clock-step-forward',
  'card-ack-lost',
  'card-frame-garbled',
  'credit-ack-lost',
  'escrow-timeout',
  'acceptor-replugged',
  'truncated-db',
  'http-500',
  'reset-mid-batch',
  'lost-ack',
  'slow',
  'duplicate',
  'reorder',
  'restored-backup',
] as const satisfies readonly (string | LinkFault)[];

export type FaultKind = (typeof FAULT_KINDS)[number];

export const LINK_FAULTS: readonly LinkFault[] = ['http-500', 'reset-mid-batch', 'lost-ack', 'slow', 'duplicate', 'reorder', 'restored-backup'];

/** Faults injected, by kind (every kind present, 0 when none was). */
export function faultCounts(): Map<FaultKind, number> {
  return new Map(FAULT_KINDS.map((k) => [k, 0]));
}
