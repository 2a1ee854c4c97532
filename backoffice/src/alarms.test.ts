import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { repeatedDetail } from './alarms.js';
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
