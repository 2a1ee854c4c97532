import { listTerminals, verifyChain } from '../../upstream/index.js';
import { dbChoice, DB_OPTIONS, defineCommand, openToolDb, options } from './common.js';

export const command = defineCommand({
  name: 'upstream verify',
  summary: "Re-hashes each terminal's stored chain from genesis and looks for gaps. Exit 1 on any problem.",
  usage: 'usage: etg upstream verify (--pg URL | --data-dir DIR) [--terminal-id ID] [--json]',
  options: {
    ...DB_OPTIONS,
    'terminal-id': { type: 'string', value: 'ID', help: 'only this terminal (default: every one)' },
    json: { type: 'boolean', help: 'one JSON line per terminal' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const db = await openToolDb(dbChoice(v, command.usage), 'etg upstream verify');
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
}
