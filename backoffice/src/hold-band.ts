/** One hour of a table's hold against theoretical, as the upstream answers it (upstream/backoffice/hourly-theoretical.ts). */
export interface HourTheoretical {
  initial: number;
  house: number;
  expected: number;
  sd: number | null;
}

/** The band's width in standard deviations: 1.96, a two-sided 95% band under the normal approximation. */
export const BAND_Z = 1.96;

/** Per hour, in percent of the initial bets: the hold on them, the theoretical edge, and the band's edges (null where not drawn). */
export interface HoldBand {
  hold: (number | null)[];
  edge: (number | null)[];
  lower: (number | null)[];
  upper: (number | null)[];
}

/**
 * The hold against the theoretical edge of one table or several (of one currency), hour by hour:
 * with a = Σ initial bets, W the house's win on them, E = Σ a·edge and σ the bound on W's standard
 * deviation, hold = 100·W/a, edge = 100·E/a and the band 100·(E ± z·σ)/a. Tables are independent,
 * so their σ² add. No initial bet in an hour: nothing drawn; a bet with an edge and no published
 * variance in it: the line and the hold, no band.
 */
export function holdBand(tables: readonly (readonly HourTheoretical[])[], hours: number, z = BAND_Z): HoldBand {
  const out: HoldBand = { hold: [], edge: [], lower: [], upper: [] };
  for (let h = 0; h < hours; h++) {
    let a = 0;
    let w = 0;
    let e = 0;
    let v: number | null = 0;
    for (const t of tables) {
      const x = t[h];
      if (!x || x.initial === 0) continue;
      a += x.initial;
      w += x.house;
      e += x.expected;
      v = v === null || x.sd === null ? null : v + x.sd * x.sd;
    }
    const pct = (x: number): number | null => (a === 0 ? null : (100 * x) / a);
    out.hold.push(pct(w));
    out.edge.push(pct(e));
    out.lower.push(v === null ? null : pct(e - z * Math.sqrt(v)));
    out.upper.push(v === null ? null : pct(e + z * Math.sqrt(v)));
  }
  return out;
}
