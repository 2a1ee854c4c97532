import { listTerminals, openUpstreamDb, verifyChain } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, options, tool } from './common.js';

const USAGE = `Usage: npm run --silent upstream -- verify (--pg URL | --data-dir DIR) [--terminal-id ID] [--json]
  Re-hashes each terminal's stored chain from genesis and looks for gaps. Exit 1 on any problem.`;

export function run(argv: string[]): Promise<number> {
  return tool(async () => {
    const v = options(argv, { ...DB_OPTIONS, 'terminal-id': { type: 'string' }, json: { type: 'boolean' } }, USAGE);
    const db = await openUpstreamDb(dbChoice(v, USAGE));
    try {
      const ids = v['terminal-id'] ? [String(v['terminal-id'])] : (await listTerminals(db)).map((t) => t.terminalId);
      let ok = true;
      for (const id of ids) {
        const r = await verifyChain(db, id);
        ok &&= r.ok;
        if (v.json) console.log(JSON.stringify(r));
        else console.log(`${id}: ${r.entries} entries, head ${r.headSeq} ${r.ok ? 'OK' : `FAILED: ${r.problems.join('; ')}`}`);
      }
      return ok ? 0 : 1;
    } finally {
      await db.close();
    }
  });
}
