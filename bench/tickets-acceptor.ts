// A ticket's insert-to-credit at a station's acceptor (issue 47), for `npm run bench -- tickets`:
// the host's own acceptor path — the ID-003 driver over its byte simulator, the barcode in escrow
// (0x6F), `ticket.redeem.request` journalled, the validation authority asked (the guard, signed
// HTTP, the upstream's transaction), `ticket.redeem.approved` journalled, STACK, the acceptor's
// stacked point, `ticket.redeem.stacked` journalled (the credit) — beside a bank note's
// insert-to-credit through the same simulator and driver, in the same run (escrow, STACK, the
// stacked point, `bill.credit`). Both timed from the insert to the credit's journal entry.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { BillAcceptors } from '../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../host/devices/credit-rule/table-credit-rule.js';
import { TicketIn } from '../host/devices/ticket-in.js';
import { simulatedTableConfig, TableConfig } from '../host/config/table-config.js';
import type { TicketAuthority } from '../host/tickets/authority.js';
import { openLedger } from '../ledger/index.js';

const silent = pino({ level: 'silent' });

async function until(ok: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/**
 * Inserts each ticket, then a note of `note` (major units), one at a time at one station, and
 * returns each one's insert-to-credit in ms (the credit: the moment its entry is journalled).
 */
export async function acceptorInsertToCredit(o: { authority: TicketAuthority; tickets: readonly string[]; note: number; warm: number }): Promise<{
  ticket: number[];
  note: number[];
}> {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 1) });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tickets-bench-'));
  const ledger = openLedger(dir, config.tableId);
  const tickets = new TicketIn({ config, ledger, log: silent, authority: o.authority });
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
    tickets,
  });
  let credited: number | null = null;
  const off = ledger.onAppended((es) => {
    if (es.some((e) => e.type === 'ticket.redeem.stacked' || e.type === 'bill.credit')) credited = performance.now();
  });
  try {
    acceptors.start();
    const sim = acceptors.simulator(1);
    if (!sim?.insertTicket) throw new Error('the simulated acceptor takes no tickets');
    await until(() => acceptors.statuses().some((s) => s.state === 'ready'), 10_000, 'the acceptor ready');
    const out = { ticket: [] as number[], note: [] as number[] };
    for (const [i, barcode] of o.tickets.entries()) {
      for (const kind of ['ticket', 'note'] as const) {
        await until(() => !sim.busy, 10_000, 'the acceptor idle');
        credited = null;
        const t0 = performance.now();
        if (kind === 'ticket') sim.insertTicket(barcode);
        else sim.insertNote(o.note);
        await until(() => credited !== null, 30_000, `the ${kind} credited`);
        if (i >= o.warm) out[kind].push((credited ?? t0) - t0);
      }
    }
    const stacked = [...ledger.entries()].filter((e) => e.type === 'ticket.redeem.stacked').length;
    if (stacked !== o.tickets.length) throw new Error(`${stacked} tickets credited of ${o.tickets.length}`);
    return out;
  } finally {
    off();
    await acceptors.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
