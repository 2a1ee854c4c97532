import { DATA_DIR, defineCommand, JSON_OUTPUT, openFromArgs, options } from './common.js';

export const command = defineCommand({
  name: 'ledger meters',
  summary: 'The meters of the table or of one station, as the ledger keeps them.',
  usage: 'usage: etg ledger meters --data-dir DIR [--scope table|station:N] [--json]',
  options: {
    'data-dir': DATA_DIR,
    scope: { type: 'string', value: 'table|station:N', help: 'only the meters of this scope (default: all)' },
    json: JSON_OUTPUT,
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const ledger = openFromArgs(v['data-dir'], command.usage);
  try {
    const m = ledger.meters(v.scope);
    if (v.json) console.log(JSON.stringify(m));
    else for (const [k, val] of Object.entries(m)) console.log(`${k.padEnd(40)} ${val}`);
    return 0;
  } finally {
    ledger.close();
  }
}
