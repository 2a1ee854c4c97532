import { z } from 'zod';

/**
 * Every fault the table knows (host/tilts/tilt-kinds.ts gives each its severity, what it stops
 * and how it clears), worded for everyone under `tilt.<kind>` and for staff under
 * `service.tiltHow.<kind>`: a closed list, so the screens' typecheck holds each against the catalogues.
 */
export const TILT_KINDS = [
  'bill-acceptor-lost',
  'bill-jam',
  'stacker-full',
  'stacker-removed',
  'bill-cheat',
  'bill-failure',
  'shoe-lost',
  'shoe-lid-open',
  'shoe-alarm',
  'card-hold',
  'upstream-offline',
  'witness-offline',
  'disk-low',
  'ledger-integrity',
  'table-closed',
  'jackpot-controller',
  'service-sign-in-burst',
  'accounts-integrity',
  'peer-integrity',
  'sas-link-down',
  'sas-link-stop',
  'sas-play-disabled',
  'sas-bills-disabled',
  'sas-aft-locked',
  'ticket-late-verdict',
  'upstream-receipt',
  'config-order',
  'printer-offline',
  'printer-paper-out',
  'printer-misbehaved',
  'printer-jam',
  'printer-fault',
  'ticket-held',
  'ticket-in-closed',
  'table-clock',
  'restart-needed',
] as const;
export const TiltKind = z.enum(TILT_KINDS);
export type TiltKind = z.infer<typeof TiltKind>;
