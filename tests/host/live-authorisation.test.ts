// Issue 51 item 2, through the host: a live table does not start without the regulator's
// reference for its whole rule set (Macau 2009 Art. 21 n.1, baccarat Art. 19); a changed rule set
// under a reference recorded for another is refused at the start and in service mode; the record
// (reference, effective day, digest) is journalled at every open and after every change.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseCard } from '../../engine/cards/card.js';
import { configChanges, evidenceBundle, openLedger, ruleRecordAt, verifyEvidence, verifyLedger, type Ledger } from '../../ledger/index.js';
import { recall } from '../../host/service/backend/recall.js';
import { ruleRecordOf } from '../../host/config/authorisation.js';
import { restoreRestartChanges } from '../../host/config/config-changes.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { credit, testTable, type TestTable, submitted } from '../../host/testing/table-kit.js';

const silent = pino({ level: 'silent' });
const supervisors = { who: 'sup-1', witness: 'sup-2' };

function liveConfig(game: TableConfig['game'], extra: Partial<TableConfig> = {}): TableConfig {
  return TableConfig.parse({ ...simulatedTableConfig(game), shoe: 'tcp:127.0.0.1:9', ...extra });
}

async function withDir(f: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'etg-live-auth-'));
  try {
    await f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function records(ledger: Ledger): { payload: Record<string, unknown> }[] {
  return [...ledger.entries(1)].filter((e) => e.type === 'rules.record').map((e) => JSON.parse(e.body) as { payload: Record<string, unknown> });
}

describe('the host opens a live table only under its authorisation', () => {
  it('a blackjack table with a real shoe and no reference does not start, naming Art. 21 n.1', () =>
    withDir(async (dir) => {
      await assert.rejects(
        startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config: liveConfig('blackjack') }),
        /authorisation reference for its whole rule set \(Despacho 57\/2009, Art\. 21 no\. 1\)/,
      );
    }));

  it('a baccarat table with a real shoe and no reference does not start, naming Art. 19', () =>
    withDir(async (dir) => {
      await assert.rejects(
        startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config: liveConfig('baccarat') }),
        /\(Despacho 55\/2004, Art\. 19\)/,
      );
    }));

  it('a rule set changed under the reference the journal recorded for another does not start', () =>
    withDir(async (dir) => {
      const auth = { profileAuthorisation: 'DICJ-2026-0042', profileAuthorisationEffective: '2026-01-02' };
      // The journal of an earlier run: DICJ-2026-0042 recorded for the table's first rule set.
      const first = ruleRecordOf(liveConfig('blackjack', auth));
      const ledger = openLedger(dir, 'SIM-BJ-01');
      ledger.append({
        type: 'rules.record',
        payload: {
          reference: 'DICJ-2026-0042',
          effective: '2026-01-02',
          digest: first.digest,
          game: 'blackjack',
          profile: 'macau-2009',
          article: first.article,
          demonstration: false,
          cause: 'open',
        },
      });
      ledger.close();
      await assert.rejects(
        startHost({
          dataDir: dir,
          rendererDir: path.join(dir, 'none'),
          logger: silent,
          config: liveConfig('blackjack', { ...auth, profileOptions: { surrender: 'none' } }),
        }),
        /rule set changed under the same authorisation DICJ-2026-0042/,
      );
    }));

  it('a demonstration table starts without one, and its record says so', () =>
    withDir(async (dir) => {
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent });
      try {
        const r = ruleRecordAt(running.ledger);
        assert.equal(r?.payload.demonstration, true);
        assert.equal(r?.payload.reference, undefined);
        assert.equal(r?.payload.cause, 'open');
        assert.equal(r?.payload.digest, ruleRecordOf(simulatedTableConfig()).digest);
        assert.equal(r?.payload.article, 'macau-2009 art.21 n.1');
      } finally {
        await running.close();
      }
    }));
});

describe('a configuration change and the authorisation on record', () => {
  it('refuses new rule options under the running reference, takes them under a new one, and journals the record after every change', () => {
    const t = testTable({ game: 'blackjack', config: { profileAuthorisation: 'DICJ-2026-0042', profileOptions: { betBehind: 'highest-bet' } } });
    try {
      const running = ruleRecordOf(t.config);
      const same = t.floor.configChanges.change(
        'profileOptions',
        { betBehind: 'highest-bet', surrender: 'none' },
        { ...supervisors, authorisation: 'DICJ-2026-0042' },
      );
      assert.equal(same.ok, false);
      assert.match(same.ok ? '' : same.reason, /rule set changed under the same authorisation DICJ-2026-0042.*\(Despacho 57\/2009, Art\. 21 no\. 1\)/);
      assert.deepEqual(records(t.ledger), [], 'nothing refused is journalled');

      const limits = t.floor.configChanges.change('limits', { min: 20_000, max: 500_000 }, { ...supervisors, authorisation: 'DICJ-2026-0050' });
      assert.equal(limits.ok, true);
      const renewed = t.floor.configChanges.change(
        'profileOptions',
        { betBehind: 'highest-bet', surrender: 'none' },
        { ...supervisors, authorisation: 'DICJ-2026-0077' },
      );
      assert.equal(renewed.ok && renewed.status, 'restart');
      const [afterLimits, afterOptions] = records(t.ledger).map((r) => r.payload);
      assert.equal(afterLimits?.changeSeq, limits.ok ? limits.seq : -1);
      assert.equal(afterLimits?.digest, running.digest, 'limits are not the rule set');
      assert.equal(afterLimits?.reference, 'DICJ-2026-0042');
      assert.equal(afterOptions?.changeSeq, renewed.ok ? renewed.seq : -1);
      assert.equal(afterOptions?.reference, 'DICJ-2026-0077');
      assert.notEqual(afterOptions?.digest, running.digest);
      assert.match(String(afterOptions?.effective), /^\d{4}-\d{2}-\d{2}$/);
    } finally {
      t.close();
    }
  });
});

/** Seat 1 bets 100, stands on 11 against the dealer's 6, and the dealer busts. */
function playBust(t: TestTable): string {
  credit(t.ledger, 1, 100_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  for (const c of ['5S', '6H', '6D']) t.table.shoe.onCard(parseCard(c));
  assert.equal(submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action: 'stand' })).ok, true);
  for (const c of ['TH', '8S']) t.table.shoe.onCard(parseCard(c));
  return t.ledger.rounds.recall({ station: 1, limit: 1 })[0]?.roundId ?? '';
}

describe('a rule change with its own authorisation and effective day (issue 51)', () => {
  it('journals the day given with the change and in the record; refuses a day for other keys or a day that is not one; a later day waits for a start on or after it', () => {
    const t = testTable({ game: 'blackjack', config: { profileAuthorisation: 'DICJ-2026-0042', profileOptions: { betBehind: 'highest-bet' } } });
    try {
      const options = { betBehind: 'highest-bet', surrender: 'none' };
      const limits = t.floor.configChanges.change(
        'limits',
        { min: 20_000, max: 500_000 },
        { ...supervisors, authorisation: 'DICJ-2026-0050', effective: '2026-03-01' },
      );
      assert.match(limits.ok ? '' : limits.reason, /effective day belongs to a rule set's authorisation \(profile, profileOptions\), not to limits/);
      const notADay = t.floor.configChanges.change('profileOptions', options, { ...supervisors, authorisation: 'DICJ-2026-0077', effective: '2026-02-30' });
      assert.match(notADay.ok ? '' : notADay.reason, /not a day of the calendar/);
      assert.deepEqual(records(t.ledger), [], 'nothing refused is journalled');
      // Refused without a new reference whatever the day (the rule set's digest changed).
      const same = t.floor.configChanges.change('profileOptions', options, { ...supervisors, authorisation: 'DICJ-2026-0042', effective: '2026-01-05' });
      assert.match(same.ok ? '' : same.reason, /rule set changed under the same authorisation DICJ-2026-0042/);

      const later = t.floor.configChanges.change('profileOptions', options, { ...supervisors, authorisation: 'DICJ-2026-0077', effective: '2999-01-01' });
      assert.equal(later.ok && later.status, 'restart');
      const change = configChanges(t.ledger).at(-1);
      assert.equal(change?.effective, '2999-01-01');
      const [record] = records(t.ledger).map((r) => r.payload);
      assert.equal(record?.reference, 'DICJ-2026-0077');
      assert.equal(record?.effective, '2999-01-01');
      // The next start: the day has not come, the rules in force stay.
      const file = TableConfig.parse({ ...t.config });
      assert.equal(restoreRestartChanges(t.ledger, file, silent), 0);
      assert.equal(file.profileAuthorisation, 'DICJ-2026-0042');
      assert.deepEqual(file.profileOptions, { betBehind: 'highest-bet' });
      // A day already come: applied from that day.
      assert.equal(
        t.floor.configChanges.change(
          'profileOptions',
          { betBehind: 'highest-bet', surrender: 'not-vs-ace' },
          { ...supervisors, authorisation: 'DICJ-2026-0078', effective: '2026-01-05' },
        ).ok,
        true,
      );
      assert.equal(restoreRestartChanges(t.ledger, file, silent), 1);
      assert.equal(file.profileAuthorisation, 'DICJ-2026-0078');
      assert.equal(file.profileAuthorisationEffective, '2026-01-05');
    } finally {
      t.close();
    }
  });
});

describe('the authorisation on record in recall and in the evidence bundle', () => {
  it("names the record the round was played under, in service recall and the player's own, proven by its own link; a forged record is caught", () => {
    const t = testTable({ game: 'blackjack', config: { profileAuthorisation: 'DICJ-2026-0042', profileAuthorisationEffective: '2026-01-02' } });
    try {
      assert.equal(t.floor.configChanges.change('limits', { min: 10_000, max: 500_000 }, { ...supervisors, authorisation: 'DICJ-2026-0050' }).ok, true);
      const roundId = playBust(t);
      const record = ruleRecordAt(t.ledger);
      assert.ok(record);
      const page = recall({ ledger: t.ledger, table: t.table, config: t.config }, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      assert.deepEqual(page.rounds[0]?.rules, {
        reference: 'DICJ-2026-0042',
        effective: '2026-01-02',
        digest: ruleRecordOf(t.config).digest,
        article: 'macau-2009 art.21 n.1',
        demonstration: true,
      });
      // The player's own recall (the station's screen) says it too: the reference and the day it took effect.
      const station = t.hub.state('station/1');
      assert.equal(station.kind, 'station');
      assert.deepEqual(station.kind === 'station' ? station.recall?.find((r) => r.roundId === roundId)?.rules : null, {
        reference: 'DICJ-2026-0042',
        effective: '2026-01-02',
        demonstration: true,
      });
      const bundle = evidenceBundle(t.ledger, roundId);
      assert.ok(bundle?.rules);
      assert.equal(bundle.rules.seq, record.entry.seq);
      assert.match(bundle.rules.body, /"reference":"DICJ-2026-0042"/);
      assert.deepEqual(verifyEvidence(bundle), { ok: true, problems: [] });
      const forged = { ...bundle, rules: { ...bundle.rules, body: bundle.rules.body.replace('DICJ-2026-0042', 'DICJ-2026-0099') } };
      assert.match(verifyEvidence(forged).problems.join('; '), /rule record \d+ does not match its link/);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a round played after a rule change that waits for the next start names the rules it was played under, not the change on record', () => {
    const t = testTable({ game: 'blackjack', config: { profileAuthorisation: 'DICJ-2026-0042', profileAuthorisationEffective: '2026-01-02' } });
    try {
      assert.equal(t.floor.configChanges.change('limits', { min: 10_000, max: 500_000 }, { ...supervisors, authorisation: 'DICJ-2026-0050' }).ok, true);
      const inForce = ruleRecordAt(t.ledger);
      const change = t.floor.configChanges.change(
        'profileOptions',
        { betBehind: 'highest-bet', surrender: 'none' },
        { ...supervisors, authorisation: 'DICJ-2026-0077' },
      );
      assert.equal(change.ok && change.status, 'restart');
      // On record at once (issue 51), marked as taking effect at the next start.
      const pending = records(t.ledger).at(-1)?.payload;
      assert.equal(pending?.reference, 'DICJ-2026-0077');
      assert.equal(pending?.takesEffect, 'next-start');
      assert.equal(ruleRecordAt(t.ledger)?.entry.seq, inForce?.entry.seq, 'the rules in force are still the running ones');
      const roundId = playBust(t);
      const page = recall({ ledger: t.ledger, table: t.table, config: t.config }, () => Date.now()).rounds({ station: null, offset: 0, limit: 3 });
      assert.equal(page.rounds[0]?.rules?.reference, 'DICJ-2026-0042');
      assert.equal(page.rounds[0]?.rules?.digest, ruleRecordOf(t.config).digest);
      const station = t.hub.state('station/1');
      assert.equal(station.kind === 'station' ? station.recall?.find((r) => r.roundId === roundId)?.rules?.reference : null, 'DICJ-2026-0042');
      const bundle = evidenceBundle(t.ledger, roundId);
      assert.ok(bundle);
      assert.equal(bundle.rules?.seq, inForce?.entry.seq);
      assert.doesNotMatch(bundle.rules?.body ?? '', /DICJ-2026-0077/);
      assert.deepEqual(verifyEvidence(bundle), { ok: true, problems: [] });
    } finally {
      t.close();
    }
  });
});
