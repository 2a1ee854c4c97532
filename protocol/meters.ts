/**
 * The ledger's meters (docs/ledger.md, *Meters*) as service mode and its exports show them: the
 * GLI/Macau name of each, and whether it counts money (integer minor units of the table's
 * currency) or events. The screens word each name per locale under `service.meter.<name>`;
 * the exports carry the English GLI name beside the ledger's own.
 */
export type MeterUnit = 'money' | 'count';

interface MeterSpec {
  unit: MeterUnit;
  /** The name on a GLI-11 / Macau meter report (English). */
  gli: string;
  /** Where the ledger keeps it (ledger/ledger.ts `derive`): per station, for the table, or both. */
  kept?: 'table' | 'station';
}

/** In the order of a meter report: money in, play, money out, then events. */
const METERS = [
  ['billsIn', { unit: 'count', gli: 'Bills in' }],
  ['totalBillsIn', { unit: 'money', gli: 'Total bills in' }],
  ['totalIn', { unit: 'money', gli: 'Total in' }],
  ['creditsWagered', { unit: 'money', gli: 'Coin in (credits wagered)' }],
  ['creditsWon', { unit: 'money', gli: 'Coin out (credits won)' }],
  ['gamesPlayed', { unit: 'count', gli: 'Games played' }],
  ['gamesWon', { unit: 'count', kept: 'station', gli: 'Games won' }],
  ['gamesLost', { unit: 'count', kept: 'station', gli: 'Games lost' }],
  ['gamesTied', { unit: 'count', kept: 'station', gli: 'Games tied' }],
  ['cancelledCredits', { unit: 'money', gli: 'Cancelled credits' }],
  ['handpaidCancelledCredits', { unit: 'money', gli: 'Handpaid cancelled credits' }],
  ['jackpotHandpays', { unit: 'money', gli: 'Jackpot handpays' }],
  ['handpays', { unit: 'count', gli: 'Handpays' }],
  ['totalOut', { unit: 'money', gli: 'Total out' }],
  // GLI-11's ticket meters (TITO, docs/tito.md): a ticket out counts once printed, a ticket in once stacked.
  ['ticketsIn', { unit: 'count', gli: 'Cashable tickets in (count)' }],
  ['ticketsInAmount', { unit: 'money', gli: 'Cashable tickets in' }],
  ['ticketsOut', { unit: 'count', gli: 'Cashable tickets out (count)' }],
  ['ticketsOutAmount', { unit: 'money', gli: 'Cashable tickets out' }],
  ['ticketsVoided', { unit: 'count', gli: 'Tickets voided (not printed)' }],
  ['voidedRounds', { unit: 'count', kept: 'table', gli: 'Voided games' }],
  ['voidRefunds', { unit: 'money', gli: 'Void refunds' }],
  ['misreads', { unit: 'count', kept: 'table', gli: 'Card misreads' }],
  ['doorOpens', { unit: 'count', gli: 'Door opens' }],
  ['powerResets', { unit: 'count', kept: 'table', gli: 'Power resets' }],
  ['configChanges', { unit: 'count', kept: 'table', gli: 'Configuration changes' }],
  // The progressive jackpot (Portugal rules 38–50), per level (`progressiveWins.main`), GLI-12's
  // progressive meters. The pool of a level is seeds + rounding + contributions − wins (the ledger's
  // `jackpot:<level>:pool` balance; the export shows it as `progressivePool.<level>`).
  ['progressiveContributions', { unit: 'money', kept: 'table', gli: 'Progressive contributions' }],
  ['progressiveHits', { unit: 'count', kept: 'table', gli: 'Progressive hits' }],
  ['progressiveWins', { unit: 'money', kept: 'table', gli: 'Progressive wins' }],
  ['progressiveSeeds', { unit: 'money', kept: 'table', gli: 'Progressive seed (start and reset values)' }],
  // Not a seed: what the house added so a shared pool paid equal shares rounded up (rule 50 b)).
  ['progressiveRounding', { unit: 'money', kept: 'table', gli: 'Progressive shared-award rounding (house)' }],
  ['progressiveResets', { unit: 'count', kept: 'table', gli: 'Progressive resets' }],
  ['progressivePool', { unit: 'money', kept: 'table', gli: 'Progressive current amount' }],
] as const satisfies readonly (readonly [name: string, spec: MeterSpec])[];
/** A meter the catalogues word (`service.meter.<name>`). */
export type MeterName = (typeof METERS)[number][0];
const BY_NAME = new Map<string, MeterSpec>(METERS);
const ORDER = new Map<string, number>(METERS.map(([name], i) => [name, i]));

/** Meters kept per progressive level, `<name>.<level>`. */
const PER_LEVEL = new Set([
  'progressiveContributions',
  'progressiveHits',
  'progressiveWins',
  'progressiveSeeds',
  'progressiveRounding',
  'progressiveResets',
  'progressivePool',
]);

/** `billsIn.50000` → `billsIn` and the note (minor units); `progressiveWins.main` → `progressiveWins` and its level; any other name → itself. */
export function meterBase(name: string): { base: string; note?: number; level?: string } {
  const m = /^billsIn\.(\d+)$/.exec(name);
  if (m) return { base: 'billsIn', note: Number(m[1]) };
  const dot = name.indexOf('.');
  const base = name.slice(0, dot);
  if (dot > 0 && PER_LEVEL.has(base)) return { base, level: name.slice(dot + 1) };
  return { base: name };
}

/** Money or a count; a meter the catalogue does not know yet is shown as a count (never as money). */
export function meterUnit(name: string): MeterUnit {
  return BY_NAME.get(meterBase(name).base)?.unit ?? 'count';
}

/** A meter's name as the catalogues know it, and its note for `billsIn.<note>`; null for a name this version does not know. */
export function meterKind(name: string): { base: MeterName; note?: number; level?: string } | null {
  const { base, note, level } = meterBase(name);
  const known = METER_NAMES.find((n) => n === base);
  return known === undefined ? null : { base: known, ...(note !== undefined ? { note } : {}), ...(level !== undefined ? { level } : {}) };
}

/**
 * The English GLI/Macau name, e.g. `Bills in: 500.00` for `billsIn.50000` in a currency of two
 * minor digits (`minorDigits`: the currency's, from Intl in locales/money.ts).
 */
export function meterGliName(name: string, minorDigits: number): string {
  const { base, note, level } = meterBase(name);
  const gli = BY_NAME.get(base)?.gli ?? name;
  if (level !== undefined) return `${gli}: ${level}`;
  if (note === undefined) return gli;
  // Integer arithmetic: the note is minor units, written as whole.fraction.
  const scale = 10 ** minorDigits;
  return minorDigits === 0 ? `${gli}: ${note}` : `${gli}: ${Math.trunc(note / scale)}.${String(note % scale).padStart(minorDigits, '0')}`;
}

/** Sorts meters as a report lists them: the catalogue's order, notes by face value, unknown ones last. */
export function compareMeters(a: string, b: string): number {
  const x = meterBase(a);
  const y = meterBase(b);
  const ox = ORDER.get(x.base) ?? METERS.length;
  const oy = ORDER.get(y.base) ?? METERS.length;
  if (ox !== oy) return ox - oy;
  if (x.level !== undefined && y.level !== undefined) return x.level.localeCompare(y.level);
  if (x.note !== undefined && y.note !== undefined) return x.note - y.note;
  return a.localeCompare(b);
}

/**
 * The meters a scope (`table`, `station:N`) reports, zero until counted: a report lists them
 * all. `notes` are the accepted notes in minor units (one `billsIn.<note>` each).
 */
export function metersOf(scope: string, notes: readonly number[]): string[] {
  const where = scope === 'table' ? 'table' : 'station';
  return METERS.flatMap(([name, spec]: readonly [string, MeterSpec]) => {
    if (spec.kept !== undefined && spec.kept !== where) return [];
    // Per level: listed once the ledger holds the level (a table without a progressive has none).
    if (PER_LEVEL.has(name)) return [];
    return name === 'billsIn' ? notes.map((n) => `billsIn.${n}`) : [name];
  });
}

/** Every meter name the catalogue words (for the locale catalogues' completeness test). */
export const METER_NAMES: readonly MeterName[] = METERS.map(([name]) => name);
