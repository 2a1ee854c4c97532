import { parseValidationNumber } from '../../terms/validation-number.js';
import { ticketByNumber, ticketLiability } from '../../upstream/ticket-queries.js';
import { dbChoice, DB_OPTIONS, defineCommand, openToolDb, UsageError } from './common.js';
import { parseCommand } from '../command.js';

export const command = defineCommand({
  name: 'upstream ticket',
  summary:
    'Looks a cash-out ticket up by its validation number: its state, issuer, amount, expiry, redemption and every attempt to redeem it (docs/tito.md). Or, with --liability, the tickets outstanding per currency. Exit 1 when no ticket has that number.',
  usage: 'usage: etg upstream ticket (NUMBER | --liability) (--pg URL | --data-dir DIR) [--json]',
  positionals: 'NUMBER',
  options: {
    ...DB_OPTIONS,
    liability: { type: 'boolean', help: 'the ticket liability: issued, not redeemed, not expired (or pending), per currency' },
    json: { type: 'boolean', help: 'the answer as one JSON line' },
  },
});

// Minor units as kept, with the amount in units of a two-decimal currency (MOP, HKD) beside them.
const money = (minor: number, currency: string) => `${minor} minor (${(minor / 100).toFixed(2)} ${currency})`;

export async function run(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseCommand(command, argv);
  const number = positionals[0];
  if (positionals.length > 1 || (v.liability ? number !== undefined : number === undefined)) {
    throw new UsageError(`upstream ticket: give one validation number, or --liability\n${command.usage}`);
  }
  const db = await openToolDb(dbChoice(v, command.usage), 'etg upstream ticket');
  try {
    if (v.liability) {
      const l = await ticketLiability(db);
      if (v.json) console.log(JSON.stringify(l));
      else {
        console.log(`ticket liability at ${l.asOf}:`);
        for (const c of l.currencies) console.log(`  ${c.currency}: ${c.tickets} tickets, ${money(c.amount, c.currency)}`);
        if (l.currencies.length === 0) console.log('  none');
        if (l.outOfRange.length > 0) console.log(`  left out (tickets out past what a table takes in a day): ${l.outOfRange.join(', ')}`);
      }
      return 0;
    }
    const view = await ticketByNumber(db, number ?? '');
    const scheme = parseValidationNumber(number ?? '');
    if (v.json)
      console.log(JSON.stringify({ ...view, scheme: scheme.ok ? { machineId: scheme.machineId, sequence: scheme.sequence } : { refused: scheme.reason } }));
    else {
      const t = view.ticket;
      console.log(
        scheme.ok ? `${number}: machine id ${scheme.machineId}, sequence ${scheme.sequence}` : `${number}: not a number this scheme makes (${scheme.reason})`,
      );
      if (t) {
        console.log(`  ${t.state}: ${money(t.amount, t.currency)}, issued by ${t.terminalId} station ${t.station} at ${t.issuedAt}, expires ${t.expiresAt}`);
        if (t.redemption)
          console.log(
            `  ${t.state === 'redeemed' ? 'redeemed' : 'held'} at ${t.redemption.terminalId} station ${t.redemption.station} (request ${t.redemption.requestId}) ${t.redemption.redeemedAt ?? t.redemption.pendingAt ?? ''}`,
          );
      } else console.log('  no ticket has this number');
      for (const c of view.contests)
        console.log(`  contested: claimed by ${c.terminalId} station ${c.station}, ${money(c.amount, c.currency)} issued ${c.issuedAt}, at ${c.contestedAt}`);
      for (const a of view.attempts)
        console.log(`  attempt ${a.requestId} at ${a.terminalId} station ${a.station}: ${a.outcome}${a.reason ? ` (${a.reason})` : ''} ${a.askedAt}`);
    }
    return view.ticket ? 0 : 1;
  } finally {
    await db.close();
  }
}
