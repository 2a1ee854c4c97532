// `devices simulate bill-acceptor|shoe --protocol … --listen tcp:127.0.0.1:PORT [--control tcp:127.0.0.1:PORT]`:
// runs a byte-level simulator behind a TCP listener for a driver (or `monitor`) to connect to.
// Commands (insert a note, draw a card, inject faults) come on stdin and on the --control port,
// one per line; `help` lists them.
import net from 'node:net';
import { createInterface } from 'node:readline';
import {
  BILL_COMMANDS,
  Id003Simulator,
  SHOE_COMMANDS,
  ShoeSimulator,
  SspSimulator,
  isCurrency,
  parseSpec,
  runBillCommand,
  runShoeCommand,
  serveDevice,
  type DeviceSide,
} from '../../hardware/index.js';
import { defineCommand, parseCommand } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'devices simulate',
  summary:
    'Runs a byte-level simulator behind a TCP listener for a driver (or `monitor`) to connect to.\n' +
    'Commands (insert a note, draw a card, inject faults) come on standard input and on the --control\n' +
    'port, one per line; "help" lists them. PORT 0 picks a free port (printed).',
  usage:
    'usage: etg devices simulate bill-acceptor --protocol id003|ssp [--currency HKD|MOP] [--encrypted] --listen tcp:127.0.0.1:PORT [--control tcp:127.0.0.1:PORT] [--json]\n' +
    '       etg devices simulate shoe --protocol framed|ascii [--seed N] --listen tcp:127.0.0.1:PORT [--control …] [--json]',
  positionals: 'bill-acceptor|shoe',
  options: {
    protocol: { type: 'string', value: 'NAME', help: 'id003 or ssp (bill acceptor); framed or ascii (shoe)' },
    currency: { type: 'string', default: 'HKD', value: 'HKD|MOP', help: "the bill acceptor's currency" },
    listen: { type: 'string', value: 'tcp:HOST:PORT', help: 'where the driver connects' },
    control: { type: 'string', value: 'tcp:HOST:PORT', help: 'a second port for simulator commands' },
    seed: { type: 'string', value: 'N', help: "seed of the simulated shoe's shuffles" },
    encrypted: { type: 'boolean', default: false, help: 'eSSP: the encrypted SSP (--protocol ssp)' },
    json: { type: 'boolean', default: false, help: 'JSON lines' },
  },
});

/** A refusal of the command line (exit 2, reported by etg). */
function usage(msg: string): never {
  throw new UsageError(`${command.name}: ${msg}\n${command.usage}`);
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(command, argv);
  const kind = positionals[0];
  if (kind !== 'bill-acceptor' && kind !== 'shoe') return usage('what to simulate: bill-acceptor or shoe');
  if (!values.listen) return usage('--listen tcp:HOST:PORT is required');
  let listen;
  let control;
  try {
    listen = parseSpec(values.listen, { listen: true });
    control = values.control ? parseSpec(values.control, { listen: true }) : null;
  } catch (e) {
    return usage((e as Error).message);
  }
  if (listen.kind !== 'tcp' || (control && control.kind !== 'tcp')) return usage('--listen and --control take tcp:HOST:PORT');

  let side: DeviceSide;
  let exec: (line: string) => string;
  let help: string;
  const ctx = { dropClient: (): void => server?.dropClient() };
  if (kind === 'bill-acceptor') {
    const p = values.protocol;
    if (p !== 'id003' && p !== 'ssp') return usage('--protocol must be id003 or ssp');
    if (!isCurrency(values.currency)) return usage('--currency must be HKD or MOP');
    if (values.encrypted && p !== 'ssp') return usage('--encrypted applies to --protocol ssp (eSSP)');
    const sim =
      p === 'id003' ? new Id003Simulator({ currency: values.currency }) : new SspSimulator({ currency: values.currency, encrypted: values.encrypted });
    side = sim;
    exec = (line) => runBillCommand(sim, line, ctx);
    help = BILL_COMMANDS;
  } else {
    const p = values.protocol;
    if (p !== 'framed' && p !== 'ascii') return usage('--protocol must be framed or ascii');
    const seed = values.seed === undefined ? undefined : Number(values.seed);
    if (seed !== undefined && !Number.isInteger(seed)) return usage('--seed must be an integer');
    const sim = new ShoeSimulator({ protocol: p, ...(seed !== undefined ? { seed } : {}) });
    side = sim;
    exec = (line) => runShoeCommand(sim, line, ctx);
    help = SHOE_COMMANDS;
  }

  let server: Awaited<ReturnType<typeof serveDevice>> | null = null;
  server = await serveDevice(side, listen.host, listen.port);
  const controlServer = control ? await listenControl(control.host, control.port, exec) : null;
  const where = {
    listen: `tcp:${server.host}:${server.port}`,
    ...(controlServer ? { control: `tcp:${control?.kind === 'tcp' ? control.host : ''}:${controlServer.port}` } : {}),
  };
  if (values.json) console.log(JSON.stringify({ type: 'listening', simulator: kind, protocol: values.protocol, ...where }));
  else
    console.log(
      `Simulated ${kind} (${values.protocol}) on ${where.listen}${where.control ? `, commands on ${where.control}` : ''}.\nType commands (help):\n${help}`,
    );

  const rl = createInterface({ input: process.stdin, terminal: false });
  rl.on('line', (line) => {
    if (line.trim()) console.log(values.json ? JSON.stringify({ type: 'reply', command: line.trim(), reply: exec(line) }) : exec(line));
  });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    rl.once('close', () => {
      // stdin closed: keep serving until a signal (a rig may run us with stdin at EOF)
    });
  });
  rl.close();
  await controlServer?.close();
  await server.close();
  return 0;
}

function listenControl(host: string, port: number, exec: (line: string) => string): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    const rl = createInterface({ input: s, terminal: false });
    rl.on('line', (line) => {
      if (line.trim()) s.write(`${exec(line)}\n`);
    });
  });
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, host, () =>
      resolve({
        port: (srv.address() as net.AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            srv.close(() => r());
          }),
      }),
    );
  });
}
