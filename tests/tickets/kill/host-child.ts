// The table host of the ticket kill campaign (./campaign.ts), a process of its own so that it can
// be SIGKILLed: the real host start (startHost) with its printer and acceptors over TCP to the
// campaign's simulators. Armed with a kill (argv: a KillArm as JSON), it SIGKILLs itself inside
// the journal's write of the first entry of that type, before or after its commit. It prints one
// JSON line per journal write (`{"kind":"wrote","types":[…]}`) and `{"kind":"ready"}` once
// started; a line `{"kind":"cash-out","station":N}` on stdin cashes that station out to a ticket
// through the station's own gate. It runs until it is killed (the campaign's restart is in its
// own process).
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { KillArm, Ports, startTicketHost } from './setup.js';

const [dataDir, portsText, upstream, armText] = process.argv.slice(2);
if (!dataDir || !portsText || !upstream) throw new Error('usage: host-child DATA_DIR PORTS_JSON UPSTREAM_URL [ARM_JSON]');
const ports = Ports.parse(JSON.parse(portsText));
const arm = armText ? KillArm.parse(JSON.parse(armText)) : null;

const running = await startTicketHost(dataDir, ports, upstream);
const ledger = running.ledger;
const appendMany = ledger.appendMany.bind(ledger);
let armed = arm;
ledger.appendMany = (entries, then) => {
  const hit = armed !== null && entries.some((e) => e.type === armed?.type);
  const at = hit ? armed?.at : undefined;
  if (hit) armed = null;
  if (at === 'before-commit') process.kill(process.pid, 'SIGKILL');
  const out = appendMany(entries, then);
  process.stdout.write(`${JSON.stringify({ kind: 'wrote', types: entries.map((e) => e.type), notes: entries.map(note) })}\n`);
  if (at === 'after-commit') process.kill(process.pid, 'SIGKILL');
  return out;
};

/** What a failed trial's message says of an entry beside its type: a ticket step's attempt and reason, a fault's kind and station. */
function note(e: { type: string; payload: unknown }): string {
  const p = (e.payload ?? {}) as Record<string, unknown>;
  const bits = [p['kind'], p['station'] === undefined ? undefined : `s${String(p['station'])}`, p['requestId'], p['reason'], p['detail']];
  return bits
    .filter((b) => b !== undefined)
    .map((b) => String(b).slice(0, 60))
    .join(' ');
}

const Command = z.object({ kind: z.literal('cash-out'), station: z.number().int() });
const gate = 'gate' in running.floor ? running.floor.gate : null;
createInterface({ input: process.stdin }).on('line', (text) => void cashOut(text));
/** Once the printer's status says a ticket can be printed (else the gate would fall back to a handpay, not what is tested here). */
async function cashOut(text: string): Promise<void> {
  const c = Command.parse(JSON.parse(text));
  const tickets = running.floor.tickets;
  for (let i = 0; i < 3000 && tickets.whyNot(c.station, tickets.creditOf(c.station)) !== null; i++) await new Promise((r) => setTimeout(r, 10));
  const r = gate && typeof gate === 'object' && 'cashOut' in gate && typeof gate.cashOut === 'function' ? gate.cashOut(c.station, 'ticket') : null;
  process.stdout.write(`${JSON.stringify({ kind: 'answer', outcome: r ?? { ok: false, reason: 'no gate' } })}\n`);
}
process.stdout.write(`${JSON.stringify({ kind: 'ready' })}\n`);
