// A ticket printer whose paper-out bit flips at every status poll (a worn sensor, or a device that
// lies): before, each flip journalled a `tilt.raise` and a `tilt.clear` of `printer-paper-out` for
// as long as it went on (a review: 10 raises and 10 clears in 10 s at the 500 ms poll). The fault is
// still raised at once; it clears only once the paper has stayed back for a while.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import pino from 'pino';
import type { PrinterCondition } from '../../hardware/printer/condition.js';
import { printerCondition } from '../../hardware/printer/test-condition.js';
import type { PrinterFaultKind } from '../../host/devices/printers.js';
import { scriptedPrinters } from './printer-kit.js';
import { until } from './shoe-wire-kit.js';

const condition = (paperOut: boolean): PrinterCondition => printerCondition({ faults: paperOut ? ['paper-out'] : [], firmware: 'GURX1' });

it('paper out flipping at every poll: raised at once, one raise and no clear while it flips, one clear once it stays back', async () => {
  // A fault journalled as the TiltManager does: once when raised, once when cleared, per kind.
  const held = new Set<PrinterFaultKind>();
  const journal: string[] = [];
  const faults = {
    raise: (kind: PrinterFaultKind) => {
      if (!held.has(kind)) journal.push(`raise ${kind}`);
      held.add(kind);
    },
    conditionGone: (kind: PrinterFaultKind) => {
      if (held.has(kind)) journal.push(`clear ${kind}`);
      held.delete(kind);
    },
  };
  const { printers, emit } = scriptedPrinters({ log: pino({ level: 'silent' }), faults, paperBackMs: 300 });
  emit({ type: 'condition', condition: condition(true) });
  assert.deepEqual(journal, ['raise printer-paper-out'], 'raised at once');
  for (let i = 0; i < 20; i++) {
    emit({ type: 'condition', condition: condition(i % 2 === 1) });
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(journal, ['raise printer-paper-out'], 'one raise, no clear while it flips');
  emit({ type: 'condition', condition: condition(false) });
  await until(() => journal.length === 2, 'the clear once the paper stayed back');
  assert.deepEqual(journal, ['raise printer-paper-out', 'clear printer-paper-out']);
  await printers.close();
});
