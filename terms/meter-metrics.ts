// The table meters both /metrics count, by the same names: a table host's own (host/metrics/table-gauges.ts,
// labelled with its game) and the floor's per terminal (upstream/metrics.ts, labelled with the terminal,
// game and currency). Written once, so that a name changed on one side cannot leave a dashboard reading
// the two under different names. Amounts in minor units.

/** A ledger meter counted as a Prometheus counter. */
export interface MeterMetric {
  readonly metric: string;
  readonly meter: string;
  readonly help: string;
}

export const TABLE_METER_METRICS = [
  { metric: 'etg_rounds_total', meter: 'gamesPlayed', help: 'rounds settled' },
  { metric: 'etg_rounds_voided_total', meter: 'voidedRounds', help: 'rounds voided, every bet returned' },
  { metric: 'etg_bets_minor_total', meter: 'creditsWagered', help: 'credits wagered, minor units' },
  { metric: 'etg_wins_minor_total', meter: 'creditsWon', help: 'credits paid back to players by settlements (stake and win), minor units' },
  { metric: 'etg_credits_in_minor_total', meter: 'totalIn', help: 'credits in (banknotes), minor units' },
  { metric: 'etg_credits_out_minor_total', meter: 'totalOut', help: 'credits out (handpays paid), minor units' },
] as const satisfies readonly MeterMetric[];
