import path from 'node:path';
import {
  askUpstreamHead,
  credentialsFile,
  readCredentials,
  receiptProblems,
  useWitnessForVerify,
  verifyLedger,
  WitnessClient,
  type Ledger,
} from '../../ledger/index.js';
import { DATA_DIR, defineCommand, JSON_OUTPUT, openFromArgs, options, UsageError } from './common.js';
import { verifyAccounts } from './verify-accounts.js';
import { verifyStations } from './verify-stations.js';

export const command = defineCommand({
  name: 'ledger verify',
  summary:
    "First what the host's start checks, in both modes: the head mark (a journal shorter than one\ncommitted here before) and the schema and its append-only triggers against the migrations. Then\nfrom the newest checkpoint (its signature, then the entries after it replayed against the state\nit signed), or with --full from the first entry: SQLite's integrity check, the hash chain, the\npostings and their balance, and balances/meters/recall recomputed from the journal. Without a\ncheckpoint both check everything. Then the service accounts store against the journal's account\nentries, and the remote stations' credentials against the journal's. Exit 0 when everything matches, 1 on any mismatch.\nThe ledger is only read: never migrated (an older schema is verified as it is), its head mark never rewritten.",
  usage: 'usage: etg ledger verify --data-dir DIR [--full] [--witness SOCKET --terminal ID] [--upstream URL] [--json]',
  options: {
    'data-dir': DATA_DIR,
    full: { type: 'boolean', help: 'replay from the first entry, not from the newest checkpoint' },
    witness: {
      type: 'string',
      value: 'SOCKET',
      help: "check the journal against the newest head the ledger witness signed, and its\ncheckpoints with the witness's key (default: $ETG_WITNESS_SOCKET); an unanswered\nwitness is a failure",
    },
    terminal: {
      type: 'string',
      value: 'ID',
      help: "the terminal this folder is (the table id of its configuration, or the host's\n--terminal-id): a journal naming another is a mismatch; required with --witness, whose\nheads are kept by terminal id",
    },
    upstream: {
      type: 'string',
      value: 'URL',
      help: "ask the upstream for a receipt of the head it holds now (signed with the terminal's\ncredentials in DIR) and check the journal against it; an unanswered upstream is a failure",
    },
    json: JSON_OUTPUT,
  },
});

/** The journal's terminal against the one named, then against the witness's newest head of it: the problems found. */
async function againstWitness(ledger: Ledger, socket: string | undefined, terminal: string | undefined): Promise<string[]> {
  if (terminal !== undefined && ledger.terminalId !== terminal)
    return [
      `the journal names terminal ${ledger.terminalId}, not ${terminal}: it is not that terminal's journal${socket ? ', and was not checked against the witness' : ''}`,
    ];
  if (!socket) return [];
  const client = new WitnessClient(socket, { timeoutMs: 10_000 });
  try {
    await useWitnessForVerify(ledger, client);
    return [];
  } catch (e) {
    return [`witness: ${e instanceof Error ? e.message : String(e)}: the journal was not checked against it`];
  } finally {
    client.close();
  }
}

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const socket = v.witness ?? process.env.ETG_WITNESS_SOCKET;
  const terminal = v.terminal === undefined ? undefined : String(v.terminal);
  // The journal's own id is whatever its writer chose, and the witness takes an id it has never
  // seen from genesis: a journal re-forged under a new id, its chain given to the witness, would
  // match that witness's head for it. The auditor names the terminal, as the host's configuration does.
  if (socket && terminal === undefined)
    throw new UsageError(`--terminal is required with --witness (or $ETG_WITNESS_SOCKET): the terminal id the witness knows this table by\n${command.usage}`);
  const ledger = openFromArgs(v['data-dir'], command.usage, true);
  try {
    const witnessProblems = await againstWitness(ledger, socket, terminal);
    const r = verifyLedger(ledger, { from: v.full ? 'genesis' : 'checkpoint' });
    if (v.upstream) {
      // The upstream asked directly: its key over the URL's TLS, its head now (ledger/upstream-head.ts).
      try {
        const credentials = readCredentials(credentialsFile(path.resolve(String(v['data-dir']))));
        const { receipt, publicKey } = await askUpstreamHead(String(v.upstream), credentials);
        const hashAt = (seq: number) => ledger.entry(seq)?.hash;
        const u = receiptProblems(ledger.terminalId, ledger.headOf(), receipt, publicKey, `asked of ${String(v.upstream)}`, hashAt);
        witnessProblems.push(...u.problems);
        r.checked.push(u.checked);
      } catch (e) {
        witnessProblems.push(`upstream: ${e instanceof Error ? e.message : String(e)}: the journal was not checked against it`);
      }
    }
    r.problems.unshift(...witnessProblems);
    r.ok &&= witnessProblems.length === 0;
    // The service accounts: a check of its own (cli/ledger/verify-accounts.ts), after the ledger's.
    const accounts = verifyAccounts(String(v['data-dir']), ledger);
    // The remote stations' credentials: their registry against the journal (cli/ledger/verify-stations.ts).
    const stations = verifyStations(String(v['data-dir']), ledger);
    const ok = r.ok && accounts.problems.length === 0 && stations.problems.length === 0;
    if (v.json) console.log(JSON.stringify({ ...r, ok, accounts, stations }));
    else {
      console.log(`terminal ${r.terminalId}: head ${r.headSeq} ${r.headHash.slice(0, 16)}…`);
      console.log(r.mode === 'full' ? `  ${r.entries} entries from the first` : `  ${r.entries} entries after checkpoint ${r.fromSeq}`);
      for (const c of r.checked) console.log(`  checked: ${c}`);
      for (const p of r.problems) console.log(`  MISMATCH: ${p}`);
      console.log(`  checked: ${accounts.checked}`);
      for (const p of accounts.problems) console.log(`  MISMATCH: ${p}`);
      console.log(`  checked: ${stations.checked}`);
      for (const p of stations.problems) console.log(`  MISMATCH: ${p}`);
      console.log(ok ? 'OK' : `FAILED (${r.problems.length + accounts.problems.length + stations.problems.length} problems)`);
    }
    return ok ? 0 : 1;
  } finally {
    ledger.close();
  }
}
