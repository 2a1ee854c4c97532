// A kill or a power cut while someone is signed in to service mode leaves a `service.enter`
// without its exit; the next start journals that exit with reason `power-loss`, once. The first
// run is a kiosk child process killed with SIGKILL while signed in; the restarts run here.
import { PROTOCOL_VERSION } from '../../protocol/index.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import WebSocket from 'ws';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { AccountStore } from '../../host/service/accounts.js';
import { startHost } from '../../host/start-host.js';
import type { EntryBody, Ledger } from '../../ledger/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SUP = { name: 'Ana', staff: '4001', pin: '482915' };

const access = (ledger: Ledger) =>
  [...ledger.entries(1)]
    .filter((e) => e.type === 'service.enter' || e.type === 'service.exit')
    .map((e) => ({ seq: e.seq, type: e.type, ...((JSON.parse(e.body) as EntryBody).payload as { staff: string; reason?: string; enterSeq?: number }) }));

describe('service sessions cut by a kill', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'service-power-loss-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('are journalled as exited (power-loss) at the next start, naming their entry, and only once', { timeout: 120_000 }, async () => {
    await new AccountStore(dir).add({ name: SUP.name, role: 'supervisor', pin: SUP.pin, staff: SUP.staff }, null);
    const child = spawn(process.execPath, ['bin/etg.js', 'start', '--headless', '--json', '--data-dir', dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const links: WebSocket[] = [];
    try {
      const kiosk = await new Promise<{ screens: Record<string, string> }>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`kiosk exited with ${code}`)));
        readline.createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as { screens: Record<string, string> }));
      });
      const url = new URL(kiosk.screens['service'] ?? '');
      const link = new WebSocket(`ws://${url.host}/ws`, { origin: url.origin });
      links.push(link);
      // The kill resets the link: its error is expected, not a failure of the test.
      link.on('error', () => undefined);
      await new Promise((r) => link.once('open', r));
      const signedIn = new Promise<void>((resolve) => {
        let version = 0;
        let asked = false;
        link.on('message', (d) => {
          const m = JSON.parse(d.toString()) as { type: string; version: number; state?: { signedIn?: boolean } };
          if (m.type !== 'snapshot') return;
          version = m.version;
          if (m.state?.signedIn) resolve();
          else if (!asked) {
            asked = true;
            link.send(
              JSON.stringify({ type: 'command', id: 'in', view: 'service', version, command: { name: 'service-sign-in', staff: SUP.staff, pin: SUP.pin } }),
            );
          }
        });
      });
      link.send(JSON.stringify({ type: 'hello', id: 'h', protocol: PROTOCOL_VERSION, token: url.searchParams.get('token') }));
      link.send(JSON.stringify({ type: 'subscribe', id: 's', view: 'service' }));
      await signedIn;
    } finally {
      // Killed with the screen still linked: closed first, the host could journal the session's
      // exit as a disconnect before the kill landed (seen on a loaded CI machine).
      child.kill('SIGKILL');
    }
    assert.equal(await exited, 'SIGKILL');
    for (const link of links) link.terminate();

    const start = () =>
      startHost({
        dataDir: dir,
        rendererDir: path.join(dir, 'none'),
        logger: pino({ level: 'silent' }),
        config: simulatedTableConfig('blackjack'),
        simulatedDealer: false,
      });
    const first = await start();
    let rows: ReturnType<typeof access>;
    try {
      rows = access(first.ledger);
    } finally {
      await first.close();
    }
    const enter = rows.find((r) => r.type === 'service.enter');
    assert.ok(enter, JSON.stringify(rows));
    const exits = rows.filter((r) => r.type === 'service.exit');
    // A SIGKILL runs no close: the only exit is the one the restart journalled.
    assert.deepEqual(
      exits.map((r) => [r.staff, r.reason, r.enterSeq]),
      [[SUP.staff, 'power-loss', enter.seq]],
    );

    const second = await start();
    try {
      assert.equal(access(second.ledger).filter((r) => r.type === 'service.exit').length, 1, 'a session is closed once');
    } finally {
      await second.close();
    }
  });
});
