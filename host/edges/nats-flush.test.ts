// A public round published in a task that then works on (a coup's settlement) leaves the host
// when published, not when the task ends (issue 55): `writeNow` after the publish. A subscriber in
// a process of its own stamps each message's arrival with the machine's monotonic clock while the
// publisher is still busy; without `writeNow` the message waits for the end of the task (the
// `nats` client writes a publish in a microtask), which is what the flush is for.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type NatsConnection } from 'nats';
import { holdWrites, writeNow } from './nats-flush.js';
import { startNatsServer, type NatsServer } from './nats-server.js';
import { natsCertificate, natsTls } from './nats-tls.js';

// The subscriber: prints "ready", then "<subject> <arrival, ns>" for each message.
const SUBSCRIBER = `
import { connect } from 'nats';
const nc = await connect({ servers: process.env.URL, tls: { ca: process.env.CA, servername: 'etg-nats', checkServerIdentity: () => undefined } });
nc.subscribe('t.>', { callback: (_e, m) => console.log(m.subject + ' ' + process.hrtime.bigint()) });
await nc.flush();
console.log('ready');
`;

/** Keeps the event loop from running for `ms` (a settlement's synchronous work). */
function busy(ms: number): bigint {
  const end = process.hrtime.bigint() + BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() < end);
  return process.hrtime.bigint();
}

describe('writeNow: a publish leaves before the task that made it ends', { timeout: 60_000 }, () => {
  let dir: string;
  let nats: NatsServer;
  let nc: NatsConnection;
  /** A second publisher that holds up to 1 MiB before writing inline (`holdWrites`). */
  let held: NatsConnection;
  let sub: ChildProcess;
  const arrived = new Map<string, bigint>();
  let ready: Promise<void>;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nats-flush-'));
    const cert = await natsCertificate(path.join(dir, 'tls'), ['127.0.0.1']);
    nats = await startNatsServer({ dir: path.join(dir, 'nats'), tls: { certFile: cert.certFile, keyFile: cert.keyFile } });
    nc = await connect({ servers: nats.url, tls: natsTls(cert) });
    held = await connect({ servers: nats.url, tls: natsTls(cert) });
    holdWrites(held, 1 << 20);
    sub = spawn(process.execPath, ['--input-type=module', '-e', SUBSCRIBER], {
      cwd: process.cwd(),
      env: { ...process.env, URL: nats.url, CA: cert.cert },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    ready = new Promise((resolve) => {
      let buffered = '';
      sub.stdout?.on('data', (d: Buffer) => {
        buffered += d.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line === 'ready') resolve();
          const [subject, at] = line.split(' ');
          if (subject && at) arrived.set(subject, BigInt(at));
        }
      });
    });
    await ready;
  });
  after(async () => {
    sub?.kill('SIGKILL');
    await nc?.close();
    await held?.close();
    await nats?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function arrival(subject: string): Promise<bigint> {
    const end = Date.now() + 20_000;
    while (!arrived.has(subject)) {
      assert.ok(Date.now() < end, `${subject} arrived`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return arrived.get(subject) ?? 0n;
  }

  it('written at once: the subscriber has it while the publisher is still busy', async () => {
    nc.publish('t.now', new TextEncoder().encode('round'));
    writeNow(nc);
    // Long enough for the subscriber, niced beside other work, to be scheduled meanwhile.
    const done = busy(1500);
    assert.ok((await arrival('t.now')) < done, 'the message arrived before the busy task ended');
  });

  it('without it, the client holds the message until the task ends', async () => {
    nc.publish('t.later', new TextEncoder().encode('round'));
    const done = busy(300);
    assert.ok((await arrival('t.later')) > done, 'the message left after the busy task');
  });

  // A settlement's change is about 200 KiB at 1,000 stations: written whole at its end, or in 32 KiB pieces as it is made.
  const change = (conn: NatsConnection, prefix: string) => {
    for (let i = 0; i < 40; i++) conn.publish(`${prefix}.${i}`, new Uint8Array(2048));
  };

  it('held (holdWrites): 80 KiB of one change stay until writeNow, then leave together', async () => {
    change(held, 't.held');
    const done = busy(300);
    writeNow(held);
    busy(300);
    assert.ok((await arrival('t.held.0')) > done, "the change's first message left only at writeNow");
    assert.ok((await arrival('t.held.39')) > done);
  });

  it('not held: the client writes the first 32 KiB of the change while the task is still busy', async () => {
    change(nc, 't.free');
    const done = busy(1500);
    assert.ok((await arrival('t.free.0')) < done, 'the first piece left inline');
    assert.ok((await arrival('t.free.39')) > done, 'the last piece waited for the task');
  });
});
