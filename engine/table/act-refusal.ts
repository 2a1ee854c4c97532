import type { Correction, HoldReason } from './vocabulary.js';

/**
 * Why the table refused a supervisor's act (a card entered, a void, a dealing error reported or
 * corrected, a jackpot level reset), as facts and never as a sentence: the host says each by a
 * key of the catalogues in the reader's language (host/floor/act-said.ts); the refusal's
 * `reason` keeps the engine's English for its log. Amounts are minor units; articles as the
 * game's text names them.
 */
export type ActRefusal =
  | {
      readonly why:
        | 'not-on-hold'
        | 'no-round-in-play'
        | 'none-to-void'
        | 'no-reporter'
        | 'same-person'
        | 'no-card-now'
        | 'no-card-between'
        | 'no-card-to-discard'
        | 'no-card-to-keep'
        | 'nobody-asks'
        | 'no-card-dealt'
        | 'decision-followed'
        | 'card-not-of-round'
        | 'jackpot-between-rounds'
        | 'jackpot-none'
        /** The journal refused the act with its record (a full disk): nothing was done (host/table/runtime.ts). */
        | 'not-journalled';
    }
  | { readonly why: 'needs-two'; readonly act: 'card-entry' | 'void' | 'correction' }
  | { readonly why: 'hold-voids' | 'already-on-hold'; readonly hold: HoldReason }
  | { readonly why: 'cards-after-hold'; readonly act: 'card-entry' | 'correction'; readonly count: number; readonly sequences: string }
  | { readonly why: 'beyond-inventory'; readonly card: string }
  | { readonly why: 'correction-not-ordered'; readonly game: string; readonly profile: string; readonly correction: Correction; readonly hold: HoldReason }
  | { readonly why: 'correction-forbidden'; readonly correction: Correction; readonly article: string }
  | { readonly why: 'card-stands'; readonly article: string }
  | { readonly why: 'dealt-face-up'; readonly step: string }
  | { readonly why: 'jackpot-no-level'; readonly level: string }
  | { readonly why: 'jackpot-below-minimum'; readonly to: number; readonly stake: number; readonly min: number; readonly article: string }
  | { readonly why: 'jackpot-below-held'; readonly level: string; readonly held: number };
