import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asciiBytes, concatBytes } from '../bytes.js';
import { blocking, conditionOf } from './condition.js';
import { COMMAND, TclReplyParser, encodeCommand, encodeStatus, escapeField, hasControlCharacter, parseCommand, unescapeField, type TclStatus } from './tcl.js';
import { layoutCommands, nextTemplate, printCommand, regions, ticketFields } from './template.js';
import { formatAmountFigures, formatValidationNumber, TicketData } from './ticket.js';
import { sampleTicket } from './test-ticket.js';

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('TCL commands', () => {
  it('writes the documented commands byte for byte', () => {
    assert.equal(text(COMMAND.STATUS), '^S|^');
    assert.equal(text(COMMAND.STATUS_EXTENDED), '^Se|^');
    assert.equal(text(COMMAND.CLEAR), '^C|^');
    assert.equal(text(COMMAND.CLEAR_JAM), '^C|j|^');
    assert.equal(text(COMMAND.DELETE_REGIONS), '^R|$|DR|^');
    assert.equal(text(encodeCommand('P', ['A', '1', 'x'])), '^P|A|1|x|^');
  });
  it('escapes ~ ^ | as ~ddd and refuses control characters', () => {
    assert.equal(escapeField('a|b^c~d'), 'a~124b~094c~126d');
    assert.equal(unescapeField('a~124b~094c~126d'), 'a|b^c~d');
    assert.throws(() => escapeField('line\nbreak'));
    assert.throws(() => escapeField('\u007f'));
  });
  it('fuzz: any printable field round-trips and never puts a raw delimiter on the wire', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).filter((s) => !hasControlCharacter(s)),
          { maxLength: 6 },
        ),
        (fields) => {
          const bytes = encodeCommand('P', fields);
          // Between the opening "^P|" and the closing "|^" no byte is ^, and every | is a separator.
          const inner = bytes.subarray(3, bytes.length - 2);
          assert.ok(!inner.includes(0x5e));
          const back = parseCommand(text(bytes));
          assert.deepEqual(back, { letter: 'P', fields });
        },
      ),
      { numRuns: 300 },
    );
  });
});

const status = (flags: number[], lastTemplate = 'A', version = 'GURUSAG18'): TclStatus => ({ unit: '0', version, flags, lastTemplate });

describe('TCL status replies', () => {
  it('reads the extended reply of the sources, 29 bytes, flags by position', () => {
    const bytes = asciiBytes('*S|0|GURUSAG18|@|@|@|@|A|Px|*');
    assert.equal(bytes.length, 29);
    const [s] = new TclReplyParser().push(bytes);
    assert.deepEqual(s, { unit: '0', version: 'GURUSAG18', flags: [0x40, 0x40, 0x40, 0x40, 0x41], lastTemplate: 'x' });
    assert.equal(conditionOf(s!).reset, true);
  });
  it('reads the short (three-flag) reply and knows it says nothing of the validation number', () => {
    const [s] = new TclReplyParser().push(asciiBytes('*S|0|GRUSA4100|T|@|@|P |*'));
    assert.deepEqual(s?.flags, [0x54, 0x40, 0x40]);
    const c = conditionOf(s!);
    assert.equal(c.extended, false);
    assert.deepEqual(c.faults, ['paper-out', 'system-error']);
  });
  it('a flag byte equal to | (0x7C) does not split the reply', () => {
    const s = status([0x7c, 0x40, 0x40, 0x40, 0x40]);
    const [back] = new TclReplyParser().push(encodeStatus(s));
    assert.deepEqual(back, s);
    const c = conditionOf(back!);
    assert.ok(c.busy);
    assert.deepEqual(c.faults, ['paper-out', 'platen-up', 'system-error']);
  });
  it('decodes every flag the driver reads', () => {
    const c = conditionOf(status([0x40 | 0x20, 0x40, 0x40 | 0x08, 0x40 | 0x03, 0x40 | 0x20 | 0x10 | 0x04 | 0x02]));
    assert.deepEqual(
      [c.busy, c.paperInChute, c.paperLow, c.chassisOpen, c.topOfForm, c.barcodeAccessed, c.validationDone, c.reset],
      [true, true, true, true, true, true, true, false],
    );
    assert.deepEqual(c.faults, ['paper-jam']);
  });
  it('a command error alone does not block a ticket; a jam with it does', () => {
    assert.deepEqual(blocking(conditionOf(status([0x50, 0x40, 0x60, 0x40, 0x40]))), []);
    assert.deepEqual(blocking(conditionOf(status([0x50, 0x40, 0x60, 0x42, 0x40]))), ['paper-jam', 'system-error']);
  });
  it('drops malformed replies and finds the next good one (bit 6 clear, bit 7 set, bad layout, noise)', () => {
    const good = encodeStatus(status([0x40, 0x40, 0x40, 0x40, 0x60]));
    const bad = [
      encodeStatus(status([0x00, 0x40, 0x40, 0x40, 0x40])),
      encodeStatus(status([0xc0, 0x40, 0x40, 0x40, 0x40])),
      asciiBytes('*S|0|X|@|@@|P|*'),
      asciiBytes('\x00\x13garbage**S'),
    ];
    const p = new TclReplyParser();
    const out = p.push(concatBytes(...bad, good));
    assert.equal(out.length, 1);
    assert.equal(out[0]?.flags[4], 0x60);
    assert.ok(p.errors > 0);
  });
  it('fuzz: random bytes never throw, never make a reply that was not sent, and cannot grow without bound', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (noise, chunk) => {
        const p = new TclReplyParser();
        const good = encodeStatus(status([0x40, 0x40, 0x48, 0x40, 0x70], 'B'));
        const all = concatBytes(noise, good);
        const out: TclStatus[] = [];
        for (let i = 0; i < all.length; i += chunk) out.push(...p.push(all.subarray(i, i + chunk)));
        // The good reply is always found last; whatever came before was made of the noise.
        assert.deepEqual(out.at(-1), status([0x40, 0x40, 0x48, 0x40, 0x70], 'B'));
        for (const s of out) for (const f of s.flags) assert.equal(f & 0xc0, 0x40);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the ticket', () => {
  it('shows the validation number as tickets do and only takes 18 digits', () => {
    assert.equal(formatValidationNumber('001234567890123456'), '00-1234-5678-9012-3456');
    assert.throws(() => formatValidationNumber('12345'));
    assert.throws(() => formatValidationNumber('00123456789012345x'));
  });
  it('amount in figures from integer minor units, no rounding anywhere', () => {
    assert.equal(formatAmountFigures(0, 'MOP'), 'MOP 0.00');
    assert.equal(formatAmountFigures(5, 'MOP'), 'MOP 0.05');
    assert.equal(formatAmountFigures(10_000, 'MOP'), 'MOP 100.00');
    assert.equal(formatAmountFigures(123_456_789, 'HKD'), 'HKD 1,234,567.89');
    assert.equal(formatAmountFigures(Number.MAX_SAFE_INTEGER, 'MOP'), 'MOP 90,071,992,547,409.91');
    assert.throws(() => formatAmountFigures(-1, 'MOP'));
    assert.throws(() => formatAmountFigures(1.5, 'MOP'));
  });
  it('fills one field per region, the barcode with the bare 18 digits', () => {
    const t = sampleTicket();
    const fields = ticketFields(t);
    assert.equal(fields.length, regions().length);
    assert.equal(fields[regions().findIndex((r) => r.object === 'l')], t.validationNumber);
    assert.ok(fields.some((f) => f.includes('12-3456-7890-1234-5678')));
    assert.ok(fields.includes('澳門元壹佰圓正'));
    const cmd = text(printCommand('B', t));
    assert.ok(cmd.startsWith('^P|B|1|'));
    assert.ok(cmd.endsWith('|^'));
  });
  it('the layout defines every region and the three templates', () => {
    const cmds = layoutCommands().map(text);
    assert.equal(cmds.filter((c) => c.startsWith('^R|')).length, regions().length);
    assert.deepEqual(
      cmds.filter((c) => c.startsWith('^T|')).map((c) => c.slice(0, 5)),
      ['^T|A|', '^T|B|', '^T|C|'],
    );
    assert.equal(cmds[0], '^R|a|R|20|20|470|60||0|1|7|1|1|0|0||^');
  });
  it('the next template follows the last named, skipping it and every unconfirmed one; none when all are excluded', () => {
    assert.deepEqual(
      ['', 'A', 'B', 'C', 'junk'].map((last) => nextTemplate(last)),
      ['A', 'B', 'C', 'A', 'A'],
    );
    assert.equal(nextTemplate('A', new Set(['B'])), 'C');
    assert.equal(nextTemplate('C', new Set(['A'])), 'B');
    assert.equal(nextTemplate('', new Set(['A', 'B'])), 'C');
    assert.equal(nextTemplate('A', new Set(['B', 'C'])), null);
    assert.equal(nextTemplate('', new Set(['A', 'B', 'C'])), null);
  });
  it('flush and reset, as [A] and [P] write them', () => {
    assert.equal(text(COMMAND.FLUSH), '^F|A|^');
    assert.equal(text(COMMAND.RESET), '^r|^');
  });
  it('refuses a ticket whose validation number is not 18 digits, or whose words carry control characters', () => {
    assert.equal(TicketData.safeParse(sampleTicket()).success, true);
    assert.equal(TicketData.safeParse({ ...sampleTicket(), validationNumber: '1234' }).success, false);
    assert.equal(TicketData.safeParse({ ...sampleTicket(), amountInWords: { zh: 'a\u0007', pt: 'b' } }).success, false);
    assert.equal(TicketData.safeParse({ ...sampleTicket(), amount: { minor: 1.5, currency: 'MOP' } }).success, false);
  });
});
