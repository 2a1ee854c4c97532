import { once } from 'node:events';
import { openFromArgs, options, tool, UsageError } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- export --data-dir DIR [--from SEQ] [--to SEQ] --json
  Prints the journal from SEQ on as one JSON array (each entry with its canonical body, content
  hash, previous hash and hash), streamed.`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(argv, { 'data-dir': { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
    if (!v.json) throw new UsageError(`export writes JSON only: add --json\n${USAGE}`);
    const from = Number(v.from ?? '1');
    const to = v.to === undefined ? Number.MAX_SAFE_INTEGER : Number(v.to);
    if (!Number.isSafeInteger(from) || from < 1 || !Number.isSafeInteger(to) || to < from) throw new UsageError(`bad --from/--to\n${USAGE}`);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, USAGE, true);
    try {
      const out = process.stdout;
      const write = async (s: string) => {
        if (!out.write(s)) await once(out, 'drain');
      };
      await write(`{"terminalId":${JSON.stringify(ledger.terminalId)},"from":${from},"entries":[`);
      let first = true;
      for (const e of ledger.entries(from, to)) {
        const { body, ...rest } = e;
        await write(`${first ? '\n' : ',\n'}${JSON.stringify({ ...rest, body: JSON.parse(body) as unknown, canonicalBody: body })}`);
        first = false;
      }
      await write('\n]}\n');
      return 0;
    } finally {
      ledger.close();
    }
  });
}
