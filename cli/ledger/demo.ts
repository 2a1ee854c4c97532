import { mkdirSync } from 'node:fs';
import { openLedger } from '../../ledger/index.js';
import { lockFolderForTool } from '../folder-lock.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { DATA_DIR, defineCommand, options, UsageError } from './common.js';

export const command = defineCommand({
  name: 'ledger demo',
  summary:
    "Writes a demonstration journal (notes in, N settled 7-seat rounds, a cash-out by handpay) so\nthe other tools have something to show. Never point it at a real kiosk's data folder.",
  usage: 'usage: etg ledger demo --data-dir DIR --terminal-id ID [--rounds N]',
  options: {
    'data-dir': DATA_DIR,
    'terminal-id': { type: 'string', value: 'ID', help: 'the terminal id of the new ledger' },
    rounds: { type: 'string', value: 'N', help: 'settled rounds to write (0–100000)', default: '12' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  if (!v['data-dir'] || !v['terminal-id']) throw new UsageError(`--data-dir and --terminal-id are required\n${command.usage}`);
  const rounds = Number(v.rounds ?? '12');
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > 100_000) throw new UsageError(`bad --rounds\n${command.usage}`);
  mkdirSync(v['data-dir'], { recursive: true, mode: 0o700 });
  const lock = lockFolderForTool(v['data-dir'], 'etg ledger demo');
  const ledger = openLedger(v['data-dir'], v['terminal-id']);
  try {
    const tag = `${Date.now().toString(36)}`;
    ledger.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'demo' } });
    const seats = [1, 2, 3, 4, 5, 6, 7];
    for (const s of seats) ledger.append(billCredit(s, 100_000, `${tag}:bill:${s}`));
    for (let i = 0; i < rounds; i++) {
      const { bets, settle } = settledRound(`${tag}-r${i}`, seats, 1000, i);
      ledger.appendMany([...bets, settle]);
    }
    const c = ledger.credit(1);
    if (c > 0) {
      ledger.append({ type: 'credit.cancel', txId: `${tag}:cc:1`, payload: { station: 1, amount: c, reason: 'cash-out' } });
      ledger.append({ type: 'handpay.confirm', txId: `${tag}:hp:1`, payload: { station: 1, requestTxId: `${tag}:cc:1`, amount: c, attendant: 'demo' } });
    }
    const done = { terminalId: ledger.terminalId, headSeq: ledger.headOf().seq, rounds, lastRound: rounds > 0 ? `${tag}-r${rounds - 1}` : null };
    console.log(v.json ? JSON.stringify(done) : `wrote up to seq ${done.headSeq}; last round ${done.lastRound ?? '(none)'}`);
    return 0;
  } finally {
    ledger.close();
    lock.release();
  }
}
