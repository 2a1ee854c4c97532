import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { RotatingFile } from './rotating-file.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'rotating-'));
  dirs.push(d);
  return d;
}
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const line = (n: number) => `${JSON.stringify({ n, pad: 'x'.repeat(80) })}\n`;

describe('the size-capped log file', () => {
  it('never lets the live file pass its cap, and keeps only the newest rotated files', async () => {
    const file = path.join(tmp(), 'host.log');
    const f = new RotatingFile(file, { maxBytes: 1000, keep: 3 });
    let peak = 0;
    for (let n = 0; n < 200; n++) {
      f.write(line(n));
      peak = Math.max(peak, statSync(file).size);
    }
    await f.close();
    assert.ok(peak <= 1000, `peak ${peak}`);
    assert.ok(existsSync(`${file}.1`) && existsSync(`${file}.3`));
    assert.ok(!existsSync(`${file}.4`), 'no more than keep rotated files');
    // Nothing between the newest rotated file and the live one is lost, and the order holds.
    const tail = [`${file}.3`, `${file}.2`, `${file}.1`, file].flatMap((p) =>
      readFileSync(p, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { n: number }).n),
    );
    assert.deepEqual(
      tail,
      Array.from({ length: tail.length }, (_, i) => 200 - tail.length + i),
    );
  });

  it('shares one file between two writers: a rotation by one is followed by the other, and both count', async () => {
    const file = path.join(tmp(), 'host.log');
    let clock = 0;
    const a = new RotatingFile(file, { maxBytes: 2000, keep: 5 }, () => clock);
    const b = new RotatingFile(file, { maxBytes: 2000, keep: 5 }, () => clock);
    let peak = 0;
    for (let n = 0; n < 300; n++) {
      clock += 400; // each writer looks at the file every second or so
      (n % 3 === 0 ? b : a).write(line(n));
      peak = Math.max(peak, statSync(file).size);
    }
    await a.close();
    await b.close();
    // Between two looks the other writer adds at most a line or two beyond the cap.
    assert.ok(peak <= 2000 + 2 * line(0).length, `peak ${peak}`);
    const all = ['.5', '.4', '.3', '.2', '.1', '']
      .map((s) => `${file}${s}`)
      .filter(existsSync)
      .flatMap((p) => readFileSync(p, 'utf8').split('\n').filter(Boolean));
    const ns = all.map((l) => (JSON.parse(l) as { n: number }).n);
    // Every line of the newest files is whole (JSON parsed) and none is written twice.
    assert.equal(new Set(ns).size, ns.length);
    assert.ok(ns.includes(299));
  });

  it('reopens the path after an outside rotation (logrotate, SIGHUP)', async () => {
    const dir = tmp();
    const file = path.join(dir, 'host.log');
    const f = new RotatingFile(file, { maxBytes: 1 << 20, keep: 2 });
    f.write(line(1));
    const { renameSync } = await import('node:fs');
    renameSync(file, `${file}.old`);
    f.reopen();
    f.write(line(2));
    await f.close();
    assert.match(readFileSync(file, 'utf8'), /"n":2/);
    assert.match(readFileSync(`${file}.old`, 'utf8'), /"n":1/);
  });

  it('a line logged after the file closed goes to stderr, never throws (a screen socket closing after the host stopped)', async () => {
    const file = path.join(tmp(), 'host.log');
    const f = new RotatingFile(file, { maxBytes: 1 << 20, keep: 2 });
    f.write(line(1));
    await f.close();
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      f.write(line(2));
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(said, [line(2)]);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /"n":2/);
  });
});
