// Issue 27 item 4: every account change is a journalled, hash-chained entry, written by the command
// line itself (under the folder's lock, so never beside a running host: issue 28 item 5); an
// accounts store from before is adopted
// once (its rows journalled as a baseline, marked `adopt`) rather than refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { openLedger } from '../../ledger/index.js';
import { folderWithAccounts, journalled, removeFolder, serviceScreen, signIn, startServiceHost, stopServiceHost, SUP, TECH } from './service-kit.js';

const etg = (stdin: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [path.resolve('bin/etg.js'), ...args], { encoding: 'utf8', input: stdin });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

type AccountEntry = { staff: string; by: string; name: string; role: string; action?: string; pin?: string; disabled?: boolean };
const accountEntries = (running: Awaited<ReturnType<typeof startServiceHost>>) => journalled<AccountEntry>(running, 'service.account');

describe('accounts in the journal (issue 27)', () => {
  it('the command line journals each account change at once (the host stopped: it holds the folder when running), and the host journals on after it', async () => {
    const dir = await folderWithAccounts([SUP, TECH]);
    // A first run makes the folder's ledger (and journals the set-up's accounts); then it stops.
    await (await startServiceHost(dir)).close();
    const cy = { staff: '1004', pin: '620481', newPin: '905173' };
    const run = (stdin: string, ...args: string[]) => {
      const r = etg(stdin, 'service', ...args, '--data-dir', dir);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    };
    run(`${cy.pin}\n${cy.pin}\n${SUP.pin}\n`, 'add-user', '--name', 'Cy Ho', '--role', 'auditor', '--staff', cy.staff, '--by', SUP.staff);
    run(`${SUP.pin}\n`, 'disable-user', '--staff', cy.staff, '--by', SUP.staff);
    run(`${SUP.pin}\n`, 'enable-user', '--staff', cy.staff, '--by', SUP.staff);
    run(`${cy.newPin}\n${cy.newPin}\n${SUP.pin}\n`, 'reset-pin', '--staff', cy.staff, '--by', SUP.staff);
    run(`${SUP.pin}\n`, 'unlock-user', '--staff', cy.staff, '--by', SUP.staff);
    run(`${SUP.pin}\n`, 'set-role', '--staff', cy.staff, '--role', 'technician', '--by', SUP.staff);
    const running = await startServiceHost(dir);
    let closed = false;
    try {
      const cys = accountEntries(running).filter((e) => e.staff === cy.staff);
      assert.deepEqual(
        cys.map((e) => e.action ?? 'add'),
        ['add', 'disable', 'enable', 'reset-pin', 'unlock', 'role'],
        'each change journalled, in order',
      );
      const [added, , , reset, , role] = cys;
      assert.equal(added?.by, `${SUP.name} (${SUP.staff})`);
      assert.match(added?.pin ?? '', /^[0-9a-f]{64}$/, 'a digest of the PIN hash, never the hash');
      assert.match(reset?.pin ?? '', /^[0-9a-f]{64}$/);
      assert.notEqual(reset?.pin, added?.pin);
      assert.equal(role?.role, 'technician');

      // The host appends after the command line's entries: the account signs in with its new PIN and role.
      const screen = await serviceScreen(running);
      const s = await signIn(screen, { staff: cy.staff, pin: cy.newPin });
      assert.equal(s.session?.role, 'technician');
      await screen.close();
      await running.close();
      closed = true;
      const verify = etg('', 'ledger', 'verify', '--full', '--data-dir', dir);
      assert.equal(verify.code, 0, verify.out + verify.err);
      assert.match(verify.out, /checked: service accounts \(3\) against the journal/);
    } finally {
      if (!closed) await running.close();
      removeFolder(dir);
    }
  });

  it('an accounts store older than this journal is adopted once: its rows journalled as a baseline marked adopt', async () => {
    const dir = await folderWithAccounts([SUP, TECH]);
    // The journal of a kiosk from before: the accounts journalled by name and role only.
    const config = simulatedTableConfig('blackjack');
    const old = openLedger(dir, config.tableId);
    old.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 'before' } });
    for (const p of [SUP, TECH]) old.append({ type: 'service.account', payload: { by: 'first-run set-up', staff: p.staff, name: p.name, role: p.role } });
    old.close();

    let running = await startServiceHost(dir);
    try {
      const adopted = accountEntries(running).filter((e) => e.action === 'adopt');
      assert.deepEqual(
        adopted.map((e) => [e.staff, e.role, e.disabled]),
        [
          [SUP.staff, SUP.role, false],
          [TECH.staff, TECH.role, false],
        ],
      );
      assert.ok(adopted.every((e) => /^[0-9a-f]{64}$/.test(e.pin ?? '')));
      const screen = await serviceScreen(running);
      await signIn(screen, TECH);
      await screen.close();
      await running.close();
      running = await startServiceHost(dir);
      assert.equal(accountEntries(running).filter((e) => e.action === 'adopt').length, 2, 'adopted once');
    } finally {
      await stopServiceHost(running, dir);
    }
  });
});
