import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { logSince } from './stall-report.js';

const dir = mkdtempSync(join(tmpdir(), 'stall-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const line = (time: string, msg: string, extra: Record<string, unknown> = {}) => JSON.stringify({ level: 30, time, app: 'table-host', ...extra, msg }) + '\n';

describe("a stalled soak's report of the host's log", () => {
  it('counts the messages since the last closed round by message and reason, most frequent first', () => {
    const file = join(dir, 'host.log');
    writeFileSync(file, line('2026-11-29T12:42:56.900Z', 'round settled'));
    for (let i = 0; i < 5; i++) appendFileSync(file, line(`2026-11-29T12:43:0${i}.000Z`, 'ticket in: returned', { reason: 'already-paid' }));
    appendFileSync(file, line('2026-11-29T12:43:05.000Z', 'screen message refused', { code: 'stale-version' }));
    appendFileSync(file, 'Error: a crash stack, not JSON\n[1, 2]\nnull\n');
    assert.equal(logSince(file, Date.parse('2026-11-29T12:42:57.000Z')), '5 × ticket in: returned (already-paid); 1 × screen message refused (stale-version)');
    assert.equal(logSince(file, Date.parse('2026-11-29T12:42:56.000Z')).split('; ').length, 3, 'the round settled too');
  });

  it('says nothing was logged, and survives a missing file and lines with a bad time', () => {
    const file = join(dir, 'quiet.log');
    writeFileSync(file, line('not a time', 'round settled') + line('2026-11-29T12:00:00.000Z', 'round settled'));
    assert.equal(logSince(file, Date.parse('2026-11-29T13:00:00.000Z')), 'nothing logged');
    assert.equal(logSince(join(dir, 'absent.log'), 0), 'nothing logged');
  });

  it('names six kinds and counts the rest', () => {
    const file = join(dir, 'many.log');
    writeFileSync(file, Array.from({ length: 9 }, (_, i) => line('2026-11-29T12:00:00.000Z', `kind ${i}`)).join(''));
    assert.match(logSince(file, 0), /; 3 other kinds$/);
  });
});
