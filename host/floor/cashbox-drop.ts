import { minorUnits, NOTE_FACE_VALUES, type Currency } from '../../hardware/billacceptor/notes.js';
import { entriesOfTypes, PAYLOADS, type EntryBody, type Ledger, type Payload } from '../../ledger/index.js';

// The drop count's reconciliation: two people count a station's cashbox at the drop, and the count
// is set against the notes the journal credited at that station since its previous drop. It is
// what catches what the credit rule cannot: a station machine that relays plain ID-003 can claim
// an escrow and a credit for a note nobody inserted (docs/security.md), and only the cashbox knows.

/** Notes counted per face value (major units), as the two people entered them. */
export type DropCount = ReadonlyMap<number, number>;

/** What the journal credited at a station since its last drop: per face value (major units), and that drop's entry. */
export interface CreditedSinceDrop {
  readonly notes: ReadonlyMap<number, number>;
  /** The station's previous `cashbox.drop`, if any. */
  readonly sinceSeq: number | null;
}

const payloadOf = (body: string): unknown => (JSON.parse(body) as EntryBody).payload;

/** The station's credits since its previous drop, read from the journal. */
export function creditedSinceDrop(ledger: Ledger, station: number): CreditedSinceDrop {
  let sinceSeq: number | null = null;
  for (const e of entriesOfTypes(ledger, ['cashbox.drop'])) if (PAYLOADS['cashbox.drop'].parse(payloadOf(e.body)).station === station) sinceSeq = e.seq;
  const notes = new Map<number, number>();
  for (const e of entriesOfTypes(ledger, ['bill.credit'], (sinceSeq ?? 0) + 1)) {
    const p = PAYLOADS['bill.credit'].parse(payloadOf(e.body));
    if (p.station !== station) continue;
    const face = p.denomination / 100;
    notes.set(face, (notes.get(face) ?? 0) + 1);
  }
  return { notes, sinceSeq };
}

/**
 * The `cashbox.drop` entry of a count against what was credited: every face value of the
 * currency that was counted or credited, its totals and the difference (counted − credited).
 */
export function dropEntry(
  station: number,
  currency: Currency,
  counted: DropCount,
  credited: CreditedSinceDrop,
  authorisedBy: readonly [string, string],
): Payload<'cashbox.drop'> {
  const faces = [...new Set([...NOTE_FACE_VALUES[currency], ...counted.keys(), ...credited.notes.keys()])].sort((a, b) => a - b);
  const notes = faces
    .map((face) => ({ denomination: minorUnits(face), counted: counted.get(face) ?? 0, credited: credited.notes.get(face) ?? 0 }))
    .filter((n) => n.counted > 0 || n.credited > 0);
  const total = (pick: (n: (typeof notes)[number]) => number) => notes.reduce((s, n) => s + pick(n) * n.denomination, 0);
  const countedTotal = total((n) => n.counted);
  const creditedTotal = total((n) => n.credited);
  return {
    station,
    currency,
    notes,
    counted: countedTotal,
    credited: creditedTotal,
    difference: countedTotal - creditedTotal,
    ...(credited.sinceSeq !== null ? { sinceSeq: credited.sinceSeq } : {}),
    authorisedBy: [...authorisedBy],
  };
}

/** Reconciles a drop count: journalled before it is reported. Refuses a face value that is no note of the currency. */
export function journalDrop(
  ledger: Ledger,
  o: { station: number; currency: Currency; counted: DropCount; authorisedBy: readonly [string, string] },
): { seq: number; payload: Payload<'cashbox.drop'> } {
  for (const face of o.counted.keys()) if (!NOTE_FACE_VALUES[o.currency].includes(face)) throw new RangeError(`${o.currency} has no ${face} note`);
  const payload = dropEntry(o.station, o.currency, o.counted, creditedSinceDrop(ledger, o.station), o.authorisedBy);
  const r = ledger.append({ type: 'cashbox.drop', payload });
  return { seq: r.entry.seq, payload };
}
