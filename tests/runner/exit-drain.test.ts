// The test runner's preload holds a test file's exit until its report has left for the runner
// (docs/toolchain.md, nodejs/node#64833): here with fakes, and with a real child whose reader is slow.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { holdExitUntilDrained, type Exiting, type Output } from './exit-drain.js';

class FakeProcess implements Exiting {
  exitCode: number | string | null | undefined = undefined;
  readonly exits: (number | string | null | undefined)[] = [];
  exit(code?: number | string | null): never {
    this.exits.push(code);
    return undefined as never;
  }
}

/** An output whose queue the test empties by hand. */
type FakeOutput = { -readonly [K in keyof Output]: Output[K] };
const output = (writableLength: number, destroyed = false): FakeOutput => ({ writableLength, destroyed });

describe('holdExitUntilDrained', () => {
  it('exits at once, with the code given, when nothing is queued', () => {
    const proc = new FakeProcess();
    holdExitUntilDrained(proc, [output(0), output(0)]);
    proc.exit(1);
    assert.deepEqual(proc.exits, [1]);
  });

  it('waits for every output to drain, then exits with the code given', async () => {
    const proc = new FakeProcess();
    const stdout = output(4096);
    const stderr = output(10);
    holdExitUntilDrained(proc, [stdout, stderr], 10_000);
    proc.exit(1);
    assert.equal(proc.exitCode, 1, 'the code is kept for an exit the event loop ends itself');
    await sleep(30);
    assert.deepEqual(proc.exits, [], 'not while stdout and stderr still hold bytes');
    stdout.writableLength = 0;
    await sleep(30);
    assert.deepEqual(proc.exits, [], 'not while stderr still holds bytes');
    stderr.writableLength = 0;
    await sleep(30);
    assert.deepEqual(proc.exits, [1]);
  });

  it('a second call while it waits changes the code, not the number of exits', async () => {
    const proc = new FakeProcess();
    const stdout = output(1);
    holdExitUntilDrained(proc, [stdout], 10_000);
    proc.exit();
    proc.exit(7);
    stdout.writableLength = 0;
    await sleep(30);
    assert.deepEqual(proc.exits, [7]);
  });

  it('does not wait on an output that broke (the runner gone), nor past its limit', async () => {
    const broken = new FakeProcess();
    holdExitUntilDrained(broken, [output(500, true)], 10_000);
    broken.exit(1);
    assert.deepEqual(broken.exits, [1]);

    const stuck = new FakeProcess();
    holdExitUntilDrained(stuck, [output(500)], 50);
    stuck.exit(1);
    await sleep(20);
    assert.deepEqual(stuck.exits, []);
    await sleep(200);
    assert.deepEqual(stuck.exits, [1]);
  });
});

const CHILD = path.join(import.meta.dirname, 'exit-drain-child.ts');
const KIB = 4096;

/** Runs the child with a reader that starts only after the child has called process.exit. */
async function readLate(mode: 'hold' | 'plain'): Promise<{ bytes: number; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, String(KIB)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = once(child, 'close');
  let gone = false;
  child.on('exit', () => (gone = true));
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => (stderr += s));
  while (!stderr.includes('exiting') && !gone) await sleep(20);
  await sleep(300);
  let bytes = 0;
  child.stdout.on('data', (b: Buffer) => (bytes += b.length));
  const [code] = (await closed) as [number | null];
  return { bytes, code };
}

describe('a child that exits with more written than its pipe holds', () => {
  it('loses the queued output without the hold (what the runner saw), and keeps it all with it', async () => {
    const plain = await readLate('plain');
    assert.equal(plain.code, 3);
    assert.ok(plain.bytes < KIB * 1024, `without the hold ${plain.bytes} of ${KIB * 1024} bytes arrive`);

    const held = await readLate('hold');
    assert.equal(held.code, 3, 'the exit code the child gave');
    assert.equal(held.bytes, KIB * 1024, 'every byte the child wrote');
  });
});
