import { openFromArgs, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- recall --data-dir DIR (--station N | --table ID) [--last N] [--json]
  The last N rounds (default 10, at most 500), newest first.`;

export function run(argv: string[]): Promise<number> {
  return tool(() => {
    const v = options(
      argv,
      { 'data-dir': { type: 'string' }, station: { type: 'string' }, table: { type: 'string' }, last: { type: 'string' }, json: { type: 'boolean' } },
      USAGE,
    );
    const limit = Number(v.last ?? '10');
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--last must be 1..500\n${USAGE}`);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, USAGE);
    try {
      const rounds =
        v.station !== undefined
          ? ledger.recall({ station: Number(v.station), limit })
          : ledger.recall({ ...(v.table ? { tableId: v.table as string } : {}), limit });
      if (v.json) {
        console.log(JSON.stringify(rounds));
        return 0;
      }
      for (const r of rounds) {
        console.log(`${r.ts}  ${r.roundId}  ${r.game}  ${r.status}  cards ${r.cards.map((c) => c.card).join(' ')}`);
        for (const l of r.lines) console.log(`    station ${l.station} seat ${l.seat} ${l.bet}: stake ${l.stake} net ${l.net}  (${l.rule})`);
        for (const c of r.credits) console.log(`    station ${c.station} credit ${c.before} → ${c.after}`);
      }
      return 0;
    } finally {
      ledger.close();
    }
  });
}
