import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { InspectorSession, inspectorUrl } from './node-probe.js';

/**
 * A process that keeps allocating garbage all the while (a host playing rounds), and holds `HELD`
 * arrays of a million numbers more each time it is told to over stdin.
 */
const BUSY = `
const held = [];
let sink = null;
setInterval(() => { for (let i = 0; i < 2000; i++) sink = { i, s: 'x'.repeat(64), a: [i, i + 1, i + 2] }; }, 1);
process.stdin.on('data', () => { held.push(new Array(1e6).fill(1.5)); process.stdout.write('held\\n'); });
`;

async function busyProcess() {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '-e', BUSY], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const u = inspectorUrl(err);
      if (u) resolve(u);
    });
    child.once('exit', () => reject(new Error(`exited: ${err}`)));
  });
  return { child, inspector: await InspectorSession.open(url) };
}

describe("a Node process's heap after GC, as the long-run bench reads the host's (issue 52)", () => {
  it('reads the same heap again and again while the process keeps allocating, and counts what it holds', async () => {
    const { child, inspector } = await busyProcess();
    try {
      const MB = 1024 * 1024;
      const reads: number[] = [];
      for (let i = 0; i < 5; i++) reads.push(await inspector.heapAfterGc());
      const spread = Math.max(...reads) - Math.min(...reads);
      assert.ok(
        reads.every((r) => Number.isFinite(r) && r > MB),
        `readings ${reads.join(', ')}`,
      );
      assert.ok(spread < 0.1 * MB, `five readings within 0.1 MB: ${reads.map((r) => (r / MB).toFixed(3)).join(', ')} MB`);
      // Two arrays of a million doubles held: 16 MB more, seen as such.
      for (let i = 0; i < 2; i++) {
        child.stdin.write('x\n');
        await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      }
      const after = await inspector.heapAfterGc();
      const grown = (after - Math.min(...reads)) / MB;
      assert.ok(grown > 15 && grown < 17.5, `${grown.toFixed(2)} MB more for 16 MB held`);
    } finally {
      inspector.close();
      child.kill();
    }
  });
});
