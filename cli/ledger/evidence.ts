import { writeFileSync } from 'node:fs';
import { evidenceBundle, verifyEvidence } from '../../ledger/index.js';
import { DATA_DIR, defineCommand, openFromArgs, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger evidence',
  summary: "Writes one round's evidence bundle (recall record, its journal entries, chain proof) as JSON.",
  usage: 'usage: etg ledger evidence --data-dir DIR --round ROUND_ID [--out FILE]',
  options: {
    'data-dir': DATA_DIR,
    round: { type: 'string', value: 'ROUND_ID', help: 'the settled or voided round' },
    out: { type: 'string', value: 'FILE', help: 'write the bundle here (default: standard output)' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v.round) throw new UsageError(`--round is required\n${command.usage}`);
  const ledger = openFromArgs(v['data-dir'], command.usage);
  try {
    const bundle = evidenceBundle(ledger, v.round);
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
    if (v.out) writeFileSync(v.out, text);
    else process.stdout.write(text);
    return 0;
  } finally {
    ledger.close();
  }
}
