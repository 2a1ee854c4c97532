import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ackRefusal, ALARM_ACKS_MAX, alarmList, credentialDetail, kindWord, repeatedDetail, supervisorDetail } from './alarms.js';
import { ApiError, type Alarm } from './api.js';
import { countTag, textOf, useStubDocument } from './stub-document.js';
import { words } from './i18n.js';

// A refusal its table repeats within the hour goes into the alarm it repeats (upstream/alarm.ts
// `raiseRepeatableAlarm`): the page says how many times and the last when, or an alarm repeated
// 300 times looked like one (a review of the change).
describe('an alarm its table repeated', () => {
  const detail = { claimed: 'F-B', repeated: { count: 299, lastAt: '2026-11-30T10:59:00.000Z', later: [] } };

  it('says how many times and the last when, in each language', () => {
    const en = words('en');
    assert.equal(repeatedDetail(en, { detail }), ` — repeated 299 times since, the last at ${en.time('2026-11-30T10:59:00.000Z')}`);
    assert.match(repeatedDetail(words('pt'), { detail }), /^ — repetido 299 vezes desde então, a última às /);
    assert.match(repeatedDetail(words('zh-Hant'), { detail }), /^ — 其後重複 299 次，最後一次於 /);
    assert.match(repeatedDetail(words('zh-Hans'), { detail }), /^ — 其后重复 299 次，最后一次于 /);
    assert.match(repeatedDetail(en, { detail: { repeated: { count: 1, lastAt: '2026-11-30T10:59:00.000Z' } } }), /repeated 1 time since/);
  });

  it('says nothing of an alarm never repeated, or of a detail that is no count', () => {
    const en = words('en');
    for (const d of [{ claimed: 'F-B' }, null, { repeated: { count: 'many', lastAt: 'x' } }, { repeated: { count: 0, lastAt: '2026-11-30T10:59:00.000Z' } }])
      assert.equal(repeatedDetail(en, { detail: d }), '', JSON.stringify(d));
  });
});

// An account a table's journal made a supervisor (upstream/ingest/supervisor-accounts.ts): the page
// names the kind in its own words and says who, how and by whom; the adoption's one alarm, how many
// and their staff numbers. Before, the kind was "Other (supervisor-account)" with no detail.
describe('a supervisor account a table journalled', () => {
  const made = { seq: 12, staff: '1004', name: 'Bruno', action: 'add', role: 'supervisor', by: 'Ana (1001)' };

  it('is its own kind in each language', () => {
    for (const l of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const word = kindWord(words(l).t, 'supervisor-account');
      assert.doesNotMatch(word, /supervisor-account/, l);
      assert.match(word, l === 'pt' ? /supervisor/ : l === 'en' ? /supervisor/ : /主管/, l);
    }
  });

  it('says who, how and by whom, ×count for a batch’s rest; the adoption lists the staff numbers', () => {
    const a = (detail: unknown) => ({ kind: 'supervisor-account', detail });
    assert.equal(supervisorDetail(words('en'), a(made)), ' (#12 Bruno (1004): added as supervisor by Ana (1001))');
    assert.equal(supervisorDetail(words('pt'), a({ ...made, action: 'reset-pin' })), ' (#12 Bruno (1004): com PIN redefinido por Ana (1001))');
    assert.equal(supervisorDetail(words('zh-Hant'), a({ ...made, action: 'role' })), ' (#12 Bruno（1004）：由 Ana (1001) 改為主管)');
    assert.equal(supervisorDetail(words('zh-Hans'), a({ ...made, action: 'enable' })), ' (#12 Bruno（1004）：由 Ana (1001) 重新启用)');
    assert.equal(supervisorDetail(words('en'), a({ ...made, count: 40, seqs: [11] })), ' (#12 Bruno (1004): added as supervisor by Ana (1001) ×40)');
    const adopted = { seq: 3, action: 'adopt', role: 'supervisor', count: 3, staff: ['1001', '1002', '1004'] };
    assert.equal(supervisorDetail(words('en'), a(adopted)), ' (#3: 3 supervisors adopted as found (1001, 1002 and 1004))');
    assert.match(supervisorDetail(words('en'), a({ ...adopted, count: 4_000 })), /4000 supervisors adopted as found \(1001, 1002, 1004 and …\)/);
    assert.match(supervisorDetail(words('zh-Hant'), a(adopted)), /按現狀記錄 3 個主管帳戶/);
  });

  it('says nothing of another kind, or of a detail that is not one', () => {
    assert.equal(supervisorDetail(words('en'), { kind: 'kiosk-integrity', detail: made }), '');
    for (const d of [null, { seq: 1 }, { ...made, staff: 5 }])
      assert.equal(supervisorDetail(words('en'), { kind: 'supervisor-account', detail: d }), '', JSON.stringify(d));
  });
});

// Who may talk to a table, changed by its journal (upstream/ingest/credential-changes.ts): the page
// names each kind in its own words and says which peer or station, what was done and by both people;
// the adoption's one alarm, how many and which, and when it came late. Before, each kind was
// "Other (peer-credential)" with no detail.
describe('a peer’s or a station’s credential a table journalled', () => {
  const peer = { seq: 40, table: 'bj-1', action: 'enrol', by: ['Ana (1001)', 'Rui (1002)'] };
  const station = { seq: 41, station: 7, action: 'replace', by: ['Ana (1001)', 'Rui (1002)'] };
  const a = (kind: string, detail: unknown) => ({ kind, detail });

  it('is its own kind in each language', () => {
    for (const l of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const)
      for (const kind of ['peer-credential', 'station-credential']) {
        const word = kindWord(words(l).t, kind);
        assert.doesNotMatch(word, /-credential/, `${l} ${kind}`);
        assert.match(word, l === 'en' ? /credential/ : l === 'pt' ? /credencial/ : /憑證|凭证/, `${l} ${kind}`);
      }
  });

  it('says which peer or station, what was done and by both people, ×count for a batch’s rest', () => {
    assert.equal(credentialDetail(words('en'), a('peer-credential', peer)), ' (#40 peer table bj-1: enrolled by Ana (1001) and Rui (1002))');
    assert.equal(
      credentialDetail(words('pt'), a('peer-credential', { ...peer, action: 'withdraw' })),
      ' (#40 mesa par bj-1: credencial para se ligar a esta mesa retirada por Ana (1001) e Rui (1002))',
    );
    assert.equal(credentialDetail(words('zh-Hant'), a('peer-credential', { ...peer, action: 'revoke' })), ' (#40 同桌 bj-1：由 Ana (1001)及Rui (1002) 撤銷)');
    assert.equal(
      credentialDetail(words('en'), a('station-credential', station)),
      ' (#41 station 7: new credential (the one in force replaced) by Ana (1001) and Rui (1002))',
    );
    assert.equal(
      credentialDetail(words('zh-Hans'), a('station-credential', { ...station, action: 'revoke', by: ['Ana (1001)'] })),
      ' (#41 投注机 7：由 Ana (1001) 撤销凭证)',
    );
    assert.match(credentialDetail(words('en'), a('peer-credential', { ...peer, count: 40, seqs: [51] })), /enrolled by Ana \(1001\) and Rui \(1002\) ×40\)$/);
  });

  it('the adoption: how many and which, … past the listed ones, and whether it came late', () => {
    const peers = { seq: 3, action: 'adopt', count: 2, tables: ['bj-1', 'war-1'] };
    assert.equal(credentialDetail(words('en'), a('peer-credential', peers)), ' (#3: 2 peer tables adopted as found (bj-1 and war-1))');
    const stations = { seq: 4, action: 'adopt', count: 300, stations: [1, 2, 3] };
    assert.equal(credentialDetail(words('en'), a('station-credential', stations)), ' (#4: 300 remote stations adopted as found (1, 2, 3 and …))');
    assert.match(credentialDetail(words('en'), a('peer-credential', { ...peers, late: true })), /; not at a first start/);
    assert.match(
      credentialDetail(words('zh-Hant'), a('station-credential', { ...stations, count: 3, late: true })),
      /按現狀記錄 3 個遙距投注機（1、2及3）；並非首次啟動/,
    );
    assert.match(
      credentialDetail(words('pt'), a('peer-credential', { ...peers, count: 1, tables: ['bj-1'] })),
      /1 mesa par adotada tal como encontrada \(bj-1\)/,
    );
  });

  it('says nothing of another kind, or of a detail that is not one', () => {
    assert.equal(credentialDetail(words('en'), a('supervisor-account', peer)), '');
    assert.equal(credentialDetail(words('en'), a('station-credential', peer)), '', 'a peer’s detail under the station kind');
    for (const d of [null, { seq: 1 }, { ...peer, by: 'Ana' }, { seq: 3, action: 'adopt', count: 2 }])
      assert.equal(credentialDetail(words('en'), a('peer-credential', d)), '', JSON.stringify(d));
  });
});

// An acknowledgement the upstream refuses (the alarm holds the most it takes, 409 acks-full; no
// such alarm; a role that may not) is said under its form in the page's language. Before, the
// page's form dropped the refusal (an unhandled rejection) and the user saw nothing happen.
describe('an acknowledgement refused', () => {
  it('says why in each language', () => {
    for (const l of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const w = words(l);
      const full = ackRefusal(w, new ApiError(409, 'acks-full'));
      assert.match(full, /20/, l);
      assert.doesNotMatch(full, /backoffice\.|acks-full/, l);
      assert.doesNotMatch(ackRefusal(w, new ApiError(404, 'no-alarm')), /backoffice\.|no-alarm/, l);
      assert.equal(ackRefusal(w, new ApiError(403, 'role')), w.t('backoffice.alarms.notAllowed'), l);
      // Any other failure as the whole page says it (failure.ts, failure.test.ts).
      assert.equal(ackRefusal(w, new ApiError(0, 'network')), w.t('backoffice.error.network'), l);
    }
  });
});

// The upstream takes ALARM_ACKS_MAX acknowledgements of an alarm and refuses the next
// (upstream/backoffice/alarm-acks.ts). The page still offered its form on an alarm that held them
// all: a note typed there was only ever refused.
describe('an alarm that holds every acknowledgement it takes', () => {
  useStubDocument();
  const ack = (n: number) => ({ by: `user${n}`, at: '2026-12-06T10:00:00.000Z', note: `seen ${n}` });
  const alarm = (acks: number): Alarm => ({
    id: 7,
    terminalId: 'T1',
    kind: 'table-offline',
    detail: {},
    raisedAt: '2026-12-06T09:00:00.000Z',
    clearedAt: null,
    acks: Array.from({ length: acks }, (_, i) => ack(i)),
  });

  it('offers no form, and says it takes no more, in each language', () => {
    for (const l of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const w = words(l);
      const list = alarmList(w, [alarm(ALARM_ACKS_MAX)], true, async () => {});
      assert.equal(countTag(list, 'form'), 0, l);
      assert.ok(textOf(list).includes(w.t('backoffice.alarms.refused.acks-full', { max: ALARM_ACKS_MAX })), l);
    }
  });

  it('offers the form while it takes one more', () => {
    const list = alarmList(words('en'), [alarm(ALARM_ACKS_MAX - 1)], true, async () => {});
    assert.equal(countTag(list, 'form'), 1);
  });
});
