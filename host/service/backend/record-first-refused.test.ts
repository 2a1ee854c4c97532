// A service act whose only trace is its `service.action` record (a sync retry now, a program
// hash computed on demand) under a journal that refuses the record (a full disk). The record comes
// first: refused, the act is not done (no retry kicked, no new hash on the Status page) and the
// technician is told it was not journalled; taken, the act follows. Before, the act came first and
// the record after: a refused record left a retry kicked (or a hash shown) that the technician was
// told had failed, with the SQLite error's text.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { programManifest, type ProgramLayout } from '../program-hash.js';
import type { BackendResult } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { programCheck } from './program-check.js';
import type { ServiceJournal } from './service-journal.js';
import { upstreamSync } from './sync.js';

/** A journal that refuses every `service.action` while `full` is true, as a full disk does; the records it took. */
function journal() {
  const taken: string[] = [];
  const j = {
    full: true,
    taken,
    action: (_by: readonly string[], action: string) => {
      if (j.full) throw new Error('SQLITE_FULL: database or disk is full');
      taken.push(action);
    },
    test: () => undefined,
  };
  return j satisfies ServiceJournal & { full: boolean };
}

const log = pino({ level: 'silent' });

/** The answer, or the throw as the person sees it. */
async function answer(act: () => BackendResult | Promise<BackendResult>): Promise<BackendResult | 'threw'> {
  try {
    return await act();
  } catch {
    return 'threw';
  }
}

function notJournalled(r: BackendResult | 'threw'): void {
  assert.ok(r !== 'threw' && !r.ok, `told it was not done, not thrown: ${JSON.stringify(r)}`);
  assert.equal(r.notice?.key, 'serviceRefusal.actNotJournalled', 'said by key: the journal refused it, nothing was done');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'record-first-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('a service act whose service.action record the journal refuses', () => {
  it('a sync retry: not kicked, told not journalled; once the journal takes its record, kicked', async () => {
    let kicks = 0;
    const sync = { kick: () => void kicks++, status: () => assert.fail('not asked') } as unknown as NonNullable<LiveBackendDeps['sync']>;
    const j = journal();
    const part = upstreamSync({ sync, log }, j);
    const r = await answer(() => part.retry('Tam (2001)'));
    assert.equal(kicks, 0, 'no retry kicked without its record');
    notJournalled(r);
    j.full = false;
    const again = await answer(() => part.retry('Tam (2001)'));
    assert.ok(again !== 'threw' && again.ok, JSON.stringify(again));
    assert.deepEqual([kicks, j.taken], [1, ['sync-retry']], 'kicked once, recorded once');
  });

  it('a program hash on demand: not shown, told not journalled; once the journal takes its record, shown', async () => {
    writeFileSync(path.join(dir, 'main.js'), 'start');
    const layout: ProgramLayout = { mode: 'packaged', root: dir, parts: ['.'], packages: [] };
    const atStart = await programManifest(layout);
    writeFileSync(path.join(dir, 'main.js'), 'changed since the start');
    let redraws = 0;
    const changes = { changed: () => void redraws++, onChange: () => () => undefined } as unknown as Changes;
    const j = journal();
    const part = programCheck({ program: { layout, atStart }, log }, () => Date.parse('2026-12-06T07:00:00Z'), j, changes);
    const r = await answer(() => part.computeProgramHash('Tam (2001)'));
    assert.equal(part.programHashLatest(), null, 'no new hash shown without its record');
    assert.equal(redraws, 0, 'nothing to redraw');
    notJournalled(r);
    j.full = false;
    const again = await answer(() => part.computeProgramHash('Tam (2001)'));
    assert.ok(again !== 'threw' && again.ok && again.key === 'service.done.hashDiffers', JSON.stringify(again));
    assert.deepEqual(part.programHashLatest()?.changed, ['main.js'], 'shown once recorded');
    assert.deepEqual([redraws, j.taken], [1, ['program-hash']]);
  });
});
