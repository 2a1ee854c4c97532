import { DATA_DIR, defineCommand, JSON_OUTPUT, openFromArgs, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger recall',
  summary: 'The last N rounds (default 10, at most 500), newest first.',
  usage: 'usage: etg ledger recall --data-dir DIR (--station N | --table ID) [--last N] [--json]',
  options: {
    'data-dir': DATA_DIR,
    station: { type: 'string', value: 'N', help: "one station's rounds" },
    table: { type: 'string', value: 'ID', help: "one table's rounds" },
    last: { type: 'string', value: 'N', help: 'how many rounds (1–500)', default: '10' },
    json: JSON_OUTPUT,
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const limit = Number(v.last ?? '10');
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--last must be 1..500\n${command.usage}`);
  const ledger = openFromArgs(v['data-dir'], command.usage);
  try {
    const rounds =
      v.station !== undefined
        ? ledger.rounds.recall({ station: Number(v.station), limit })
        : ledger.rounds.recall({ ...(v.table ? { tableId: v.table } : {}), limit });
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
}
