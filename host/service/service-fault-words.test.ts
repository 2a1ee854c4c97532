// A service action whose backend threw (SQLITE_FULL from a full disk, a locked database, a read-only
// data folder) was shown to the person at the screen as `service.failed.refused` with the
// exception's raw English ('Refused: database or disk is full') in every language, and the host's
// log had nothing of it. The screen now names the kind of failure in its own words
// (`service.failed.fault.*`) and the raw text goes to the host's log only.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ServiceState } from '../../protocol/index.js';
import { ServiceState as ServiceStateSchema } from '../../protocol/index.js';
import { AccountStore } from './accounts.js';
import { ServiceHost } from './service-host.js';
import { fakeBackend } from './testing/fake-backend.js';
import { memoryAccountJournal } from './testing/memory-account-journal.js';
import { manualTimers } from '../testing/manual-timers.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

const fault = (words: string, code?: string): Error => Object.assign(new Error(words), code ? { code } : {});

const catalogue = (tag: string) =>
  (JSON.parse(readFileSync(path.join('locales/catalogues', `${tag}.json`), 'utf8')) as { service: { failed: { fault?: Record<string, string> } } }).service
    .failed.fault ?? {};

describe("a service action whose backend threw: the screen names the kind of failure in its words, the log keeps the exception's", () => {
  let dir: string;
  let accounts: AccountStore;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'service-fault-'));
    const setUp = new AccountStore(dir, { scrypt: FAST });
    await setUp.add({ name: 'Ana', role: 'supervisor', pin: '482915', staff: '1001' }, null);
    await setUp.add({ name: 'Bo', role: 'technician', pin: '739164', staff: '1002' }, { staff: '1001', pin: '482915' });
    setUp.close();
    accounts = new AccountStore(dir, { scrypt: FAST, journal: memoryAccountJournal().journal });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, Error, string][] = [
    ['SQLITE_FULL', fault('database or disk is full', 'SQLITE_FULL'), 'diskFull'],
    ['ENOSPC', fault('ENOSPC: no space left on device, write', 'ENOSPC'), 'diskFull'],
    ['SQLITE_BUSY', fault('database is locked', 'SQLITE_BUSY'), 'busy'],
    ['SQLITE_READONLY', fault('attempt to write a readonly database', 'SQLITE_READONLY'), 'readOnly'],
    ['EROFS', fault('EROFS: read-only file system, open', 'EROFS'), 'readOnly'],
    ['anything else', new Error('Cannot read properties of undefined'), 'other'],
  ];
  for (const [what, error, kind] of cases)
    it(`${what}: service.failed.fault.${kind}, worded in every language, the raw text logged`, async () => {
      const t = manualTimers();
      const fake = fakeBackend();
      fake.backend.devices.testNote = () => Promise.reject(error);
      const logged: unknown[] = [];
      const host = new ServiceHost({
        accounts,
        backend: fake.backend,
        timers: t.timers,
        log: { error: (o: unknown, m?: string) => void logged.push([o, m]) },
      });
      const settle = async () => {
        for (let i = 0; i < 400 && host.state('c1', 'en').busy; i++) await new Promise((res) => setTimeout(res, 5));
      };
      host.apply('c1', { name: 'service-sign-in', staff: '1002', pin: '739164' });
      await settle();
      assert.ok(host.apply('c1', { name: 'service-action', action: { kind: 'test-note', station: 1 } }).ok);
      await settle();
      const notice = (ServiceStateSchema.parse(host.state('c1', 'en')) as ServiceState).notice;
      assert.equal(notice?.ok, false);
      assert.equal(notice?.key, `service.failed.fault.${kind}`);
      assert.ok(!JSON.stringify(notice).includes(error.message), `the raw English is not the screen's: ${JSON.stringify(notice)}`);
      assert.ok(JSON.stringify(logged).includes(error.message), `the raw English is the log's: ${JSON.stringify(logged)}`);
      for (const tag of ['en', 'pt', 'zh-Hant', 'zh-Hans']) assert.ok((catalogue(tag)[kind] ?? '').length > 0, `${tag}: service.failed.fault.${kind} worded`);
      host.stop();
    });
});
