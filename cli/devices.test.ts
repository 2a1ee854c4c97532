// The CLI across TCP, as the issue asks: `simulate` in one process, `monitor` in another.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, ['bin/etg.js', 'devices', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

function firstLine(child: ChildProcess, match: (l: string) => boolean, timeoutMs = 20000): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    const t = setTimeout(() => reject(new Error('no matching line')), timeoutMs);
    rl.on('line', (l) => {
      if (match(l)) {
        clearTimeout(t);
        resolve(l);
      }
    });
  });
}

function exitCode(child: ChildProcess): Promise<number> {
  return new Promise((r) => child.on('close', (c) => r(c ?? 1)));
}

describe('npm run devices', () => {
  it('simulate + monitor work together across TCP; commands on the control port', async () => {
    const sim = start([
      'simulate',
      'bill-acceptor',
      '--protocol',
      'id003',
      '--currency',
      'MOP',
      '--listen',
      'tcp:127.0.0.1:0',
      '--control',
      'tcp:127.0.0.1:0',
      '--json',
    ]);
    try {
      const listening = JSON.parse(await firstLine(sim, (l) => l.includes('"listening"'))) as { listen: string; control: string };
      const mon = start(['monitor', '--bill-acceptor', listening.listen, '--protocol', 'id003', '--currency', 'MOP', '--json', '--count', '1']);
      const lines: string[] = [];
      createInterface({ input: mon.stdout! }).on('line', (l) => lines.push(l));
      const enabled = new Promise<void>((resolve) => {
        const iv = setInterval(() => {
          if (lines.some((l) => l.includes('"enabled":true'))) {
            clearInterval(iv);
            resolve();
          }
        }, 20);
      });
      await enabled;
      const port = Number(listening.control.split(':').at(-1));
      const ctl = net.connect(port, '127.0.0.1');
      ctl.write('insert 500\n');
      const code = await exitCode(mon);
      ctl.destroy();
      assert.equal(code, 0);
      const credit = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.type === 'credit');
      assert.deepEqual([credit?.type, credit?.amount, credit?.currency], ['credit', 50000, 'MOP']);
    } finally {
      sim.kill('SIGTERM');
      await exitCode(sim);
    }
  });

  it('usage errors exit with 2', async () => {
    const c = start(['monitor', '--shoe', 'bluetooth:00:11:22', '--protocol', 'framed']);
    assert.equal(await exitCode(c), 2);
    const e = start(['monitor', '--shoe', 'serial:', '--protocol', 'framed']);
    assert.equal(await exitCode(e), 2);
    const d = start(['simulate', 'toaster', '--listen', 'tcp:127.0.0.1:0']);
    assert.equal(await exitCode(d), 2);
  });

  it('takes a serial: spec: a port that cannot be opened is a lost link, named, not a usage error', async () => {
    const c = start(['monitor', '--shoe', 'serial:/dev/no-such-tty', '--protocol', 'framed', '--json', '--duration', '1500']);
    const out = await firstLine(c, () => true);
    assert.equal(await exitCode(c), 0);
    assert.match(out, /"disconnected".*serial:\/dev\/no-such-tty/);
  });

  it('list works without a USB bus', async () => {
    const c = start(['list', '--json']);
    const out = await firstLine(c, () => true);
    assert.equal(await exitCode(c), 0);
    assert.ok(Array.isArray(JSON.parse(out)));
  });
});
