// The print judge alone (pure): each rule of docs/protocols/tcl.md, "Printed, not printed, unknown",
// on hand-made status sequences.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PrinterCondition } from './condition.js';
import { printerCondition } from './test-condition.js';
import { PrintJudge, resolveAttempt, type Verdict } from './judge.js';

const idle = (over: Partial<PrinterCondition> = {}): PrinterCondition => printerCondition({ validationDone: true, lastTemplate: 'B', ...over });

/** Feeds the statuses one per 100 ms from t = 100 and returns the first verdict (or null). */
function judge(before: PrinterCondition, seq: PrinterCondition[], settleMs = 1000): Verdict | null {
  const j = new PrintJudge('A', before, 0, settleMs);
  let t = 0;
  for (const c of seq) {
    t += 100;
    const v = j.observe(c, t);
    if (v) return v;
  }
  return null;
}

const taken = idle({ busy: true, validationDone: false, topOfForm: false });
const validated = idle({ busy: true, validationDone: true, topOfForm: false });
const done = idle({ lastTemplate: 'A', paperInChute: true, topOfForm: false });
const outcome = (v: Verdict | null) => (v ? [v.outcome, 'reason' in v ? v.reason : ''] : null);

describe('the print judge', () => {
  it('printed: taken, validation number done after clear, ended naming the template', () => {
    assert.deepEqual(outcome(judge(idle(), [taken, validated, done])), ['printed', '']);
  });
  it('printed although busy was never seen, if the flag was seen clear, then rising with the template named', () => {
    assert.deepEqual(outcome(judge(idle(), [idle({ validationDone: false }), done])), ['printed', '']);
    assert.deepEqual(outcome(judge(idle(), [idle({ validationDone: false, barcodeAccessed: true, busy: true }), done])), ['printed', '']);
  });
  it('a flag cleared with no busy yet is no end of the job: the judge waits (a printer that clears first, then starts)', () => {
    assert.equal(judge(idle(), [idle({ validationDone: false }), idle({ validationDone: false })]), null);
    assert.deepEqual(outcome(judge(idle(), [idle({ validationDone: false }), taken, validated, done])), ['printed', '']);
  });
  it('a stale validation flag (never seen clear) is no proof', () => {
    assert.deepEqual(outcome(judge(idle(), [idle({ busy: true }), done])), ['unknown', 'no-validation-number']);
  });
  it('not printed: never started, idle past the settle time, no fault', () => {
    assert.deepEqual(outcome(judge(idle(), Array(12).fill(idle()))), ['not-printed', 'ignored']);
    assert.equal(judge(idle(), Array(9).fill(idle())), null, 'not before the settle time');
  });
  it('unknown, never not printed: a fault after the command with no start seen (a jam reported before the start status may follow a barcode printed whole)', () => {
    // A review of 6 December: voided (the credit back) while the player may hold the paper; a number a
    // casino system took as live at 0x58 (docs/sas.md) is then paid twice. The fault needs a person anyway.
    assert.deepEqual(outcome(judge(idle(), Array(12).fill(idle({ faults: ['paper-out', 'system-error'] })))), ['unknown', 'fault-before-start']);
    assert.deepEqual(outcome(judge(idle(), Array(12).fill(idle({ faults: ['paper-jam'] })))), ['unknown', 'fault-before-start']);
    // A jam seen and cleared (a person pulled the paper) before the settle time: the paper may have carried the barcode.
    assert.deepEqual(outcome(judge(idle(), [idle({ faults: ['paper-jam'] }), ...Array(11).fill(idle())])), ['unknown', 'fault-before-start']);
    // A command or data error alone is no fault of the paper: the printer refused the command.
    assert.deepEqual(outcome(judge(idle(), Array(12).fill(idle({ faults: ['command-error'] })))), ['not-printed', 'ignored']);
  });
  it('unknown: a fault while printing, even if the job then ends naming the template', () => {
    assert.deepEqual(outcome(judge(idle(), [taken, idle({ busy: true, validationDone: false, faults: ['paper-jam'] }), done])), [
      'unknown',
      'fault-while-printing',
    ]);
    assert.deepEqual(outcome(judge(idle(), [taken, validated, idle({ faults: ['paper-jam'], validationDone: true })])), ['unknown', 'fault-while-printing']);
  });
  it('a chassis open while printing is no fault (the printer prints on)', () => {
    assert.deepEqual(outcome(judge(idle(), [taken, { ...validated, chassisOpen: true }, { ...done, chassisOpen: true }])), ['printed', '']);
  });
  it('unknown: the printer restarted, the job ended naming another template, or the template named with no job', () => {
    assert.deepEqual(outcome(judge(idle(), [taken, idle({ reset: true, lastTemplate: '' })])), ['unknown', 'printer-restarted']);
    assert.deepEqual(outcome(judge(idle(), [taken, validated, idle()])), ['unknown', 'aborted']);
    assert.deepEqual(outcome(judge(idle(), [idle({ lastTemplate: 'A' })])), ['unknown', 'inconsistent']);
    assert.deepEqual(outcome(judge(idle(), [idle({ extended: false })])), ['unknown', 'short-status']);
  });
  it('a second print cycle in one job is said (repeated)', () => {
    const v = judge(idle(), [taken, validated, idle({ busy: true, validationDone: false }), validated, done]);
    assert.equal(v?.outcome, 'printed');
    assert.equal(v?.evidence.repeated, true);
  });
  it('end(): link lost or deadline, unknown whatever was seen', () => {
    const j = new PrintJudge('A', idle(), 0, 1000);
    j.observe(taken, 100);
    assert.deepEqual(outcome(j.end('link-lost')), ['unknown', 'link-lost']);
    assert.deepEqual(outcome(j.end('timeout')), ['unknown', 'timeout']);
  });
});

describe('resolving a journalled attempt after a restart', () => {
  const attempt = { validationNumber: '000000000000000001', template: 'A' as const, before: 'B' };
  it('printed when the printer names its template with the validation number done', () => {
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ lastTemplate: 'A' }))), ['printed', '']);
  });
  it('not printed when the printer still names the template before', () => {
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ lastTemplate: 'B' }))), ['not-printed', 'ignored']);
  });
  it('unknown when the printer restarted, is busy, names neither, or lacks the validation number', () => {
    assert.deepEqual(outcome(resolveAttempt(attempt, idle({ reset: true }), idle({ lastTemplate: 'A' }))), ['unknown', 'printer-restarted']);
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ busy: true }))), ['unknown', 'timeout']);
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ lastTemplate: '' }))), ['unknown', 'inconsistent']);
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ lastTemplate: 'A', validationDone: false }))), ['unknown', 'no-validation-number']);
    assert.deepEqual(outcome(resolveAttempt({ ...attempt, before: 'A' }, idle(), idle({ lastTemplate: 'A' }))), ['unknown', 'inconsistent']);
  });
  it('unknown when the template came to be named after the first status with no print cycle seen (a printer naming a job it never ran)', () => {
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ lastTemplate: 'A' }), false)), ['unknown', 'inconsistent']);
    assert.deepEqual(outcome(resolveAttempt(attempt, idle(), idle({ lastTemplate: 'A' }), true)), ['printed', '']);
    assert.deepEqual(
      outcome(resolveAttempt(attempt, idle({ lastTemplate: 'A' }), idle({ lastTemplate: 'A' }), false)),
      ['printed', ''],
      'ended before the session',
    );
  });
  it('unknown, never not printed, when the printer still names the template before but stands in a fault the job may have met (a jam after its barcode)', () => {
    // The printer never ended the job, so it names the template before; but the jam stopped a job
    // it had taken, maybe with its barcode printed whole: voided, the player could hold paper that reads valid.
    const jammed = idle({ lastTemplate: 'B', faults: ['paper-jam', 'system-error'], topOfForm: false });
    assert.deepEqual(outcome(resolveAttempt(attempt, jammed, jammed)), ['unknown', 'fault-while-printing']);
    assert.deepEqual(outcome(resolveAttempt(attempt, idle({ lastTemplate: 'B', faults: ['paper-out'] }), idle({ lastTemplate: 'B' }))), [
      'unknown',
      'fault-while-printing',
    ]);
    assert.deepEqual(outcome(resolveAttempt(attempt, idle({ lastTemplate: 'B', faults: ['data-error'] }), idle({ lastTemplate: 'B' }))), [
      'not-printed',
      'ignored',
    ]);
  });
});
