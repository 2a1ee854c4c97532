// What a kill campaign counts as its trials go: the kills, what the restarts found, what the
// checks refused, and the timings. One object that the trials add to and the result reads.

/** Where a kill landed: before the target said it was in play (mid-recovery), or while it played. */
export const KILL_KINDS = ['sigkill-during-start', 'sigkill-during-play'] as const;
export type KillKind = (typeof KILL_KINDS)[number];

/**
 * What a restart found the kill had left: a stacked note whose credit the device still owed (its
 * credit journalled or not), a note in escrow (returned at power-up), a round in play (resumed)
 * or one voided by the recovery rules.
 */
export const FOUND_KINDS = ['credit-owed-at-restart', 'escrow-returned-at-power-up', 'round-resumed', 'round-voided'] as const;
export type FoundKind = (typeof FOUND_KINDS)[number];

export interface CampaignTally {
  readonly kills: Record<KillKind, number>;
  readonly found: Record<FoundKind, number>;
  /** The restarts' recovery times (ms). */
  readonly recover: number[];
  /** The targets' starts, process start to table in play, and their module loading (ms). */
  readonly starts: number[];
  readonly loads: number[];
  /** Every violation, with its trial. */
  readonly violations: string[];
  lost: number;
  duplicated: number;
  ledgerFailures: number;
  /** Targets that exited before their kill. */
  early: number;
  /** Notes stacked, as the last check of each table counted them. */
  stacked: number;
  upstreamExact: boolean;
  /** A target's typical start, to aim the kills during start inside it (updated as starts come in). */
  typicalStart: number;
}

export function emptyTally(): CampaignTally {
  return {
    kills: { 'sigkill-during-start': 0, 'sigkill-during-play': 0 },
    found: { 'credit-owed-at-restart': 0, 'escrow-returned-at-power-up': 0, 'round-resumed': 0, 'round-voided': 0 },
    recover: [],
    starts: [],
    loads: [],
    violations: [],
    lost: 0,
    duplicated: 0,
    ledgerFailures: 0,
    early: 0,
    stacked: 0,
    upstreamExact: true,
    typicalStart: 300,
  };
}
