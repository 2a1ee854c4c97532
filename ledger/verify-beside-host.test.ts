// `etg ledger verify` run beside a running host: another process appends while the verification
// reads. Every count it compares (the journal, the outbox, balances, meters, the head mark) must
// be read as of one moment; read one after another, an entry committed in between was counted in
// one and not the other, and a sound ledger was reported broken ("outbox holds 65 entries, 64 are
// unacknowledged").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { openExistingLedger, openLedger, verifyLedger } from './index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'verify-beside-host-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const INDEX = path.join(path.dirname(fileURLToPath(import.meta.url)), 'index.ts');

/** The host: another process appending one entry after another until it is stopped. */
function startWriter(): { ready: Promise<void>; stop: () => Promise<void> } {
  const code = `
    const { openExistingLedger } = await import(${JSON.stringify(INDEX)});
    const l = openExistingLedger(${JSON.stringify(dir)});
    process.stdout.write('ready\\n');
    for (let i = 0; ; i++) {
      l.append({ type: 'service.action', payload: { who: 'host', action: 'sync-retry', detail: 'beside ' + i } });
      if (i % 20 === 0) await new Promise((r) => setImmediate(r));
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
    child.on('exit', (c) => reject(new Error(`the writer exited (${c})`)));
  });
  return {
    ready,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

describe('verify beside a host appending', () => {
  it('reads the journal, the outbox and the head mark as of one moment: no false problem', { timeout: 120_000 }, async () => {
    const host = openLedger(dir, 'T-BESIDE');
    for (let i = 0; i < 60; i++) host.append({ type: 'service.action', payload: { who: 'host', action: 'sync-retry', detail: `before ${i}` } });
    host.close();
    const writer = startWriter();
    try {
      await writer.ready;
      // The tool opens the ledger once, as `etg ledger verify` does (read-only), and the host goes on appending.
      const tool = openExistingLedger(dir, { tailCheck: false, readonly: true });
      try {
        // Until the host has appended during a dozen verifications (a loaded machine may starve it a while).
        const seen: number[] = [];
        const deadline = Date.now() + 60_000;
        let grew = 0;
        for (let i = 0; grew < 12 && Date.now() < deadline; i++) {
          await sleep(5);
          const r = verifyLedger(tool, { from: 'genesis' });
          assert.deepEqual(r.problems, [], `verification ${i} at head ${r.headSeq}`);
          assert.equal(r.entries, r.headSeq, 'every entry up to the head it reports was checked');
          if (r.headSeq > (seen.at(-1) ?? 60)) grew++;
          seen.push(r.headSeq);
        }
        assert.equal(grew, 12, `the host appended between verifications (${seen.join(', ')})`);
      } finally {
        tool.close();
      }
    } finally {
      await writer.stop();
    }
    // Stopped: the journal the host left verifies whole.
    const l = openExistingLedger(dir);
    try {
      assert.deepEqual(verifyLedger(l, { from: 'genesis' }).problems, []);
    } finally {
      l.close();
    }
  });
});
