import { verifyLedger } from '../../ledger/index.js';
import { openFromArgs, options, tool } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- verify --data-dir DIR [--json]
  Integrity check, hash chain, postings balance, and balances/meters/recall recomputed from the
  journal. Exit 0 when everything matches, 1 on any mismatch.`;

export function run(argv: string[]): Promise<number> {
  return tool(() => {
    const v = options(argv, { 'data-dir': { type: 'string' }, json: { type: 'boolean' } }, USAGE);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, USAGE, true);
    try {
      const r = verifyLedger(ledger);
      if (v.json) console.log(JSON.stringify(r));
      else {
        console.log(`terminal ${r.terminalId}: ${r.entries} entries, head ${r.headSeq} ${r.headHash.slice(0, 16)}…`);
        for (const c of r.checked) console.log(`  checked: ${c}`);
        for (const p of r.problems) console.log(`  MISMATCH: ${p}`);
        console.log(r.ok ? 'OK' : `FAILED (${r.problems.length} problems)`);
      }
      return r.ok ? 0 : 1;
    } finally {
      ledger.close();
    }
  });
}
