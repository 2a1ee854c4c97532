import { NOTE_FACE_VALUES, type Currency } from '../notes.js';
import type { ViolationRule } from '../types.js';

/**
 * The validator's channel values as the host trusts them (the SSP driver, driver.ts): held to the
 * table's dataset (if configured) and to the first one it reported. A channel valued otherwise is
 * distrusted for good (until the host restarts and a technician has looked), inhibited, and its
 * notes refused, so a validator that says channel 1 (the 10 note) is worth 1000, at once or after
 * a reset, credits nothing for it. A value of 0 (a note the dataset's version cannot express)
 * claims nothing: that channel is unknown anyway.
 */
export class SspDataset {
  /** Channel (1-based) → face value, from SETUP REQUEST (default: the currency's notes in order). */
  private channels: number[];
  /** Without the table's dataset, the first one the validator reported: a later SETUP REQUEST must say the same. */
  private pinned: readonly number[] | null = null;
  /** Channels whose value the validator's word cannot settle (mismatched or changed): no note is taken on them. */
  private readonly distrusted = new Set<number>();
  /** The last dataset a violation was reported for (a mismatch is said once, not at every session). */
  private reported = '';

  constructor(
    private readonly currency: Currency,
    /** The table's dataset: each channel's face value (major units), channel 1 first; null: none configured. */
    private readonly expected: readonly number[] | null,
  ) {
    this.channels = [...NOTE_FACE_VALUES[currency]];
  }

  /** The channel values a SETUP REQUEST reported, each one that differs from what it is held to a violation. */
  adopt(values: readonly number[], violation: (rule: ViolationRule, report: string) => void): void {
    const differs = (from: readonly number[]) => values.flatMap((v, i) => (v !== 0 && v !== from[i] ? [{ channel: i + 1, said: v, was: from[i] ?? 0 }] : []));
    const say = (rule: 'dataset-mismatch' | 'dataset-changed', what: string, wrong: { channel: number; said: number; was: number }[]) => {
      for (const w of wrong) this.distrusted.add(w.channel);
      const key = `${rule} ${values.join(',')}`;
      if (wrong.length === 0 || this.reported === key) return;
      this.reported = key;
      violation(rule, `SETUP REQUEST ${wrong.map((w) => `channel ${w.channel} = ${w.said} (${what} ${w.was})`).join(', ')}`);
    };
    if (this.expected) say('dataset-mismatch', 'the table’s dataset:', differs(this.expected));
    else if (this.pinned) say('dataset-changed', 'first reported:', differs(this.pinned));
    else this.pinned = [...values];
    this.channels = [...values];
  }

  /** Face value of a channel; undefined when unknown, 0 (a value the dataset could not express), no note of the currency, or distrusted. */
  valueOf(channel: number): number | undefined {
    if (this.distrusted.has(channel)) return undefined;
    const v = this.channels[channel - 1];
    // Only a note of the table's currency: a channel the dataset values otherwise is refused as unknown.
    return v && NOTE_FACE_VALUES[this.currency].includes(v) ? v : undefined;
  }

  /** SET INHIBITS' mask: the first 16 channels whose note the table accepts and whose value is trusted. */
  inhibitMask(accepted: ReadonlySet<number>): number {
    let mask = 0;
    this.channels.forEach((v, i) => {
      if (accepted.has(v) && i < 16 && !this.distrusted.has(i + 1)) mask |= 1 << i;
    });
    return mask;
  }
}
