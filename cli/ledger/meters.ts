import { openFromArgs, options, tool } from './common.js';

const USAGE = `Usage: npm run --silent ledger -- meters --data-dir DIR [--scope table|station:N] [--json]`;

export function run(argv: string[]): Promise<number> {
  return tool(() => {
    const v = options(argv, { 'data-dir': { type: 'string' }, scope: { type: 'string' }, json: { type: 'boolean' } }, USAGE);
    const ledger = openFromArgs(v['data-dir'] as string | undefined, USAGE);
    try {
      const m = ledger.meters(v.scope as string | undefined);
      if (v.json) console.log(JSON.stringify(m));
      else for (const [k, val] of Object.entries(m)) console.log(`${k.padEnd(40)} ${val}`);
      return 0;
    } finally {
      ledger.close();
    }
  });
}
