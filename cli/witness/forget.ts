import { userInfo } from 'node:os';
import { forgetTerminal, terminalIdProblem, WitnessFolderBusy } from '../../witness/index.js';
import { DIR, defineCommand, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'witness forget',
  summary:
    "Accepts the loss of a terminal's witnessed entries (a ledger restored from a backup, a disk\nreplaced): its head is forgotten, recorded first in record.jsonl with who did it, and the\nnext start gives the witness the chain from genesis again. Stop the witness first; only who\nmay write its folder (root) can.",
  usage: 'usage: etg witness forget --dir DIR --terminal ID --by NAME',
  options: {
    dir: DIR,
    terminal: { type: 'string', value: 'ID', help: 'the terminal whose head is forgotten' },
    by: { type: 'string', value: 'NAME', help: 'who accepts the loss (recorded)' },
  },
});

export function run(argv: string[]): number {
  const v = options(command, argv);
  if (!v.dir || !v.terminal || !v.by) throw new UsageError(`--dir, --terminal and --by are required\n${command.usage}`);
  const problem = terminalIdProblem(String(v.terminal));
  if (problem) throw new UsageError(`--terminal: ${problem}`);
  const by = `${String(v.by)} (as ${userInfo().username})`;
  let head;
  try {
    head = forgetTerminal(String(v.dir), String(v.terminal), by);
  } catch (e) {
    // The witness serves the folder: the user's to resolve (stop it), as a held data folder is (exit 2).
    if (e instanceof WitnessFolderBusy) throw new UsageError(e.message);
    throw e;
  }
  const out = { terminal: String(v.terminal), forgotten: head };
  console.log(v.json ? JSON.stringify(out) : head ? `forgot head ${head.seq} of ${out.terminal} (signed ${head.at})` : `no head of ${out.terminal} was held`);
  return 0;
}
