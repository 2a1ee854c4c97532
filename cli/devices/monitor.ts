// `devices monitor --bill-acceptor <spec> --protocol id003|ssp [--currency HKD|MOP] [--json]` and
// `devices monitor --shoe <spec> --protocol framed|ascii [--json]`: drives the device as the host
// would (enables it, stacks every accepted note, acknowledges every shoe event) and prints the
// logical events. With the spec `sim`, simulator commands are read from stdin.
import { createInterface } from 'node:readline';
import {
  isCurrency,
  openBillAcceptor,
  openShoe,
  parseSpec,
  runBillCommand,
  runShoeCommand,
  type BillAcceptorEvent,
  type ShoeEvent,
} from '../../hardware/index.js';
import { defineCommand, parseCommand } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'devices monitor',
  summary:
    'Drives a bill acceptor or a shoe as the host would (enables it, stacks every accepted note,\n' +
    'acknowledges every shoe event) and prints the logical events. With the spec `sim`, simulator\n' +
    'commands are read from standard input. <spec>: sim | usb:VID:PID[:serial] | tcp:HOST:PORT | serial:PATH (serial:/dev/ttyS0)',
  usage:
    'usage: etg devices monitor --bill-acceptor <spec> --protocol id003|ssp [--currency HKD|MOP] [--accept 100,500] [--json]\n' +
    '       etg devices monitor --shoe <spec> --protocol framed|ascii [--json]',
  options: {
    'bill-acceptor': { type: 'string', value: 'SPEC', help: 'the bill acceptor to drive' },
    shoe: { type: 'string', value: 'SPEC', help: 'the shoe to drive' },
    protocol: { type: 'string', value: 'NAME', help: 'id003 or ssp (bill acceptor); framed or ascii (shoe)' },
    currency: { type: 'string', default: 'HKD', value: 'HKD|MOP', help: "the bill acceptor's currency" },
    accept: { type: 'string', value: '100,500', help: 'face values to accept (default: every one)' },
    json: { type: 'boolean', default: false, help: 'one JSON line per event' },
    count: { type: 'string', value: 'N', help: 'exit after N credits (bill acceptor) or N cards (shoe)' },
    duration: { type: 'string', value: 'MS', help: 'exit after MS milliseconds' },
  },
});

/** A refusal of the command line (exit 2, reported by etg). */
function usage(msg: string): never {
  throw new UsageError(`${command.name}: ${msg}\n${command.usage}`);
}

export function billLine(e: BillAcceptorEvent): Record<string, unknown> {
  switch (e.type) {
    case 'credit':
      return { type: 'credit', amount: e.amount, currency: e.currency, denomination: e.denomination, escrowId: e.escrowId, recovered: e.recovered };
    case 'escrowed':
    case 'stacking':
      return { type: e.type, amount: e.note.amount, currency: e.note.currency, denomination: e.note.denomination, escrowId: e.note.escrowId };
    case 'returned':
      return { type: 'returned', reason: e.reason, ...(e.note ? { amount: e.note.amount, currency: e.note.currency, escrowId: e.note.escrowId } : {}) };
    case 'jam':
      return { type: 'jam', where: e.where, ...(e.note ? { escrowId: e.note.escrowId } : {}) };
    case 'powerUp':
      return { type: 'powerUp', notePending: e.notePending, creditOwed: e.creditOwed, ...(e.note ? { escrowId: e.note.escrowId, amount: e.note.amount } : {}) };
    default:
      return { ...e };
  }
}

function human(e: Record<string, unknown>): string {
  const { type, ...rest } = e;
  const money = typeof rest.amount === 'number' ? ` ${rest.currency ?? ''} ${(rest.amount / 100).toFixed(2)}` : '';
  delete rest.amount;
  delete rest.currency;
  const extra = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  return `${new Date().toISOString()} ${String(type).padEnd(14)}${money} ${extra}`.trimEnd();
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseCommand(command, argv);
  const ba = values['bill-acceptor'];
  const shoeSpec = values.shoe;
  if ((ba === undefined) === (shoeSpec === undefined)) return usage('give exactly one of --bill-acceptor or --shoe');
  const spec = (ba ?? shoeSpec) as string;
  try {
    parseSpec(spec);
  } catch (e) {
    return usage((e as Error).message);
  }
  const count = values.count === undefined ? undefined : Number(values.count);
  const duration = values.duration === undefined ? undefined : Number(values.duration);
  if (count !== undefined && !(Number.isInteger(count) && count > 0)) return usage('--count must be a positive integer');
  if (duration !== undefined && !(Number.isFinite(duration) && duration > 0)) return usage('--duration must be a positive number of ms');
  const print = (e: Record<string, unknown>): void => {
    console.log(values.json ? JSON.stringify(e) : human(e));
  };

  let seen = 0;
  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));
  let close: () => Promise<void>;
  let simCommand: ((line: string) => string) | null = null;

  if (ba !== undefined) {
    const protocol = values.protocol;
    if (protocol !== 'id003' && protocol !== 'ssp') return usage('--protocol must be id003 or ssp for a bill acceptor');
    const currency = values.currency;
    if (!isCurrency(currency)) return usage('--currency must be HKD or MOP');
    const accept = values.accept?.split(',').map(Number);
    if (accept && accept.some((n) => !Number.isFinite(n) || n <= 0)) return usage('--accept takes face values, e.g. 100,500');
    const dev = openBillAcceptor(spec, { protocol, currency, enabled: true, ...(accept ? { accept } : {}) });
    dev.on((e) => {
      print(billLine(e));
      if (e.type === 'credit' && count !== undefined && ++seen >= count) finish(0);
    });
    const sim = dev.simulator;
    if (sim) simCommand = (line) => runBillCommand(sim, line);
    close = () => dev.close();
  } else {
    const protocol = values.protocol;
    if (protocol !== 'framed' && protocol !== 'ascii') return usage('--protocol must be framed or ascii for a shoe');
    const dev = openShoe(spec, { protocol });
    dev.on((e: ShoeEvent) => {
      print({ ...e });
      if (e.type === 'card' && count !== undefined && ++seen >= count) finish(0);
    });
    const sim = dev.simulator;
    if (sim) simCommand = (line) => runShoeCommand(sim, line);
    close = () => dev.close();
  }

  let rl: ReturnType<typeof createInterface> | null = null;
  if (simCommand) {
    const run1 = simCommand;
    rl = createInterface({ input: process.stdin, terminal: false });
    rl.on('line', (line) => {
      if (line.trim()) console.error(run1(line));
    });
  }
  const timer = duration ? setTimeout(() => finish(0), duration) : null;
  const onSig = (): void => finish(0);
  process.once('SIGINT', onSig);
  process.once('SIGTERM', onSig);
  const code = await done;
  if (timer) clearTimeout(timer);
  process.off('SIGINT', onSig);
  process.off('SIGTERM', onSig);
  rl?.close();
  await close();
  return code;
}
