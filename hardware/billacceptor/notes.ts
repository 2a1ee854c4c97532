// Banknotes of the table currencies. Amounts are integer minor units (cents/avos), 100 per unit.

export type Currency = 'HKD' | 'MOP';

export const MINOR_PER_UNIT = 100;

/** Face values in major units of the notes in circulation (HKMA / BNU / BOC issues). */
export const NOTE_FACE_VALUES: Readonly<Record<Currency, readonly number[]>> = {
  HKD: [10, 20, 50, 100, 500, 1000],
  MOP: [10, 20, 50, 100, 500, 1000],
};

export function isCurrency(s: string): s is Currency {
  return s === 'HKD' || s === 'MOP';
}

export function minorUnits(faceValue: number): number {
  return Math.round(faceValue * MINOR_PER_UNIT);
}
