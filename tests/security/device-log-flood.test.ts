// A device that sends one hostile message after another must not write one warn line each: the
// shoe's warnings and a printer's protocol violations are logged sampled, per device and kind, as
// other device lines are (a review of the shoe and printer drivers: 200 garbage lines from an
// ASCII shoe wrote 200 warn lines, 1,000 printer violations 1,000), and every one is counted.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pino from 'pino';
import { AsciiShoe } from '../../hardware/shoe/ascii.js';
import { SampledLog } from '../../host/logging/sampled-log.js';
import { TableShoe } from '../../host/devices/shoe.js';
import { testTable } from '../../host/testing/table-kit.js';
import { scriptedPrinters } from './printer-kit.js';
import { ScriptedShoePort, until } from './shoe-wire-kit.js';

interface Line {
  msg: string;
  suppressed?: number;
}

/** A pino logger whose lines (warn and above) the test reads. */
function capturing(): { log: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const log = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { log, lines };
}

/** Every event a set of lines stands for: each line itself and the ones it says it held back. */
const accounted = (lines: Line[], msg: string): number => lines.filter((l) => l.msg === msg).reduce((n, l) => n + 1 + (l.suppressed ?? 0), 0);

it("an ASCII shoe's 200 unrecognised lines (under its queue's bound): a few warn lines, all accounted for", async () => {
  const t = testTable();
  const { log, lines } = capturing();
  const port = new ScriptedShoePort();
  const shoe = new TableShoe('usb:script', t.table, log, {
    decks: 8,
    sampledLog: new SampledLog(log), // as the host's start wires it (host/start/shoe.ts)
    protocol: 'ascii',
    open: (_spec, o) => {
      const d = new AsciiShoe(async () => port, { ...o, reconnectBaseMs: 10_000 });
      d.start();
      return d;
    },
  });
  let warnings = 0;
  shoe.onEvent((e) => void (e.type === 'warning' && warnings++));
  try {
    shoe.start();
    await until(() => shoe.state().state === 'ready', 'the shoe connected');
    port.send(new TextEncoder().encode('x\n'.repeat(200)));
    await until(() => warnings >= 200, '200 warnings');
    const said = lines.filter((l) => l.msg === 'shoe event').length;
    assert.ok(said <= 3, `${said} warn lines`);
  } finally {
    await shoe.close();
    t.close();
  }
  assert.equal(accounted(lines, 'shoe event'), 200);
});

it("a printer's 1,000 protocol violations: a few warn lines, all accounted for", async () => {
  const { log, lines } = capturing();
  // As the host's start wires it (host/start/table-runtime.ts).
  const { printers, emit } = scriptedPrinters({ log, sampledLog: new SampledLog(log) });
  for (let i = 0; i < 1000; i++) emit({ type: 'protocolViolation', rule: 'unsolicited-print', report: `ticket ${i}` });
  const said = lines.filter((l) => l.msg === 'ticket printer').length;
  assert.ok(said <= 3, `${said} warn lines`);
  await printers.close();
  assert.equal(accounted(lines, 'ticket printer'), 1000);
});
