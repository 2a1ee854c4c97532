import { writeFileSync } from 'node:fs';
import { evidenceBundle, verifyEvidence } from '../../ledger/index.js';
import { openFromArgs, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- evidence --data-dir DIR --round ROUND_ID [--out FILE]
  Writes one round's evidence bundle (recall record, its journal entries, chain proof) as JSON.`;

export function run(argv: string[]): Promise<number> {
  return tool(() => {
    const v = options(argv, { 'data-dir': { type: 'string' }, round: { type: 'string' }, out: { type: 'string' } }, USAGE);
    if (!v.round) throw new UsageError(`--round is required\n${USAGE}`);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, USAGE);
    try {
      const bundle = evidenceBundle(ledger, v.round as string);
      if (!bundle) {
        console.error(`ledger: no settled or voided round ${String(v.round)}`);
        return 1;
      }
      const check = verifyEvidence(bundle);
      if (!check.ok) {
        console.error(`ledger: the bundle does not verify: ${check.problems.join('; ')}`);
        return 1;
      }
      const text = `${JSON.stringify(bundle, null, 2)}\n`;
      if (v.out) writeFileSync(v.out as string, text);
      else process.stdout.write(text);
      return 0;
    } finally {
      ledger.close();
    }
  });
}
