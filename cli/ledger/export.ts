import { once } from 'node:events';
import { DATA_DIR, defineCommand, openFromArgs, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger export',
  summary: 'Prints the journal from SEQ on as one JSON array (each entry with its canonical body, content\nhash, previous hash and hash), streamed.',
  usage: 'usage: etg ledger export --data-dir DIR [--from SEQ] [--to SEQ] --json',
  options: {
    'data-dir': DATA_DIR,
    from: { type: 'string', value: 'SEQ', help: 'the first entry', default: '1' },
    to: { type: 'string', value: 'SEQ', help: 'the last entry (default: the head)' },
    json: { type: 'boolean', help: 'required: export writes JSON only' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v.json) throw new UsageError(`export writes JSON only: add --json\n${command.usage}`);
  const from = Number(v.from ?? '1');
  const to = v.to === undefined ? Number.MAX_SAFE_INTEGER : Number(v.to);
  if (!Number.isSafeInteger(from) || from < 1 || !Number.isSafeInteger(to) || to < from) throw new UsageError(`bad --from/--to\n${command.usage}`);
  const ledger = openFromArgs(v['data-dir'], command.usage, true);
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
}
