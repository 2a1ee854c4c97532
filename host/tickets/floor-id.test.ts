import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { FLOOR_VALIDATION_FILE, keepingFloorId } from './floor-id.js';
import { upstreamAnswering } from './upstream-test-kit.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'floor-id-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A log that keeps its error lines. */
function errorsLog(): { log: pino.Logger; errors: string[] } {
  const errors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  return { log, errors };
}

describe("the upstream's validation id kept in the data folder", () => {
  it('is kept when the upstream answers, read by the next run, and an answer out of reach changes nothing', async () => {
    const dir = mkdtempSync(path.join(root, 'kept-'));
    const { log } = errorsLog();
    let answer: number | null = 8_388_609;
    const first = keepingFloorId(
      upstreamAnswering(() => answer),
      dir,
      log,
    );
    assert.equal(first.knownMachineId?.(), null, 'none before the first answer');
    assert.deepEqual(await first.machineId(4242), { ok: true, machineId: 8_388_609 });
    assert.equal(first.knownMachineId?.(), 8_388_609);
    answer = null;
    const next = keepingFloorId(
      upstreamAnswering(() => answer),
      dir,
      log,
    );
    assert.equal(next.knownMachineId?.(), 8_388_609, 'read back at the next start');
    assert.deepEqual(await next.machineId(8_388_609), { ok: false, detail: 'offline' });
    assert.equal(next.knownMachineId?.(), 8_388_609, 'an offline answer forgets nothing');
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, FLOOR_VALIDATION_FILE), 'utf8')), { v: 1, machineId: 8_388_609 });
  });

  it('a file not ours is not believed and is logged; a folder it cannot be written to is logged and the answer still given', async () => {
    const dir = mkdtempSync(path.join(root, 'damaged-'));
    writeFileSync(path.join(dir, FLOOR_VALIDATION_FILE), '{"v":1,"machineId":0}');
    const damaged = errorsLog();
    assert.equal(keepingFloorId(upstreamAnswering(7), dir, damaged.log).knownMachineId?.(), null);
    assert.equal(damaged.errors.length, 1);
    assert.match(damaged.errors[0] ?? '', /floor-validation\.json/);

    // A data folder that is a file: nothing can be written in it (a broken mount, a full disk alike).
    const notAFolder = path.join(root, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const broken = errorsLog();
    const a = keepingFloorId(upstreamAnswering(8_388_700), notAFolder, broken.log);
    assert.deepEqual(await a.machineId(), { ok: true, machineId: 8_388_700 }, 'the answer is used this run');
    assert.equal(a.knownMachineId?.(), null, 'nothing kept');
    assert.ok(
      broken.errors.some((l) => /could not be kept/.test(l)),
      broken.errors.join('\n'),
    );
  });
});
