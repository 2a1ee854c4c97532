import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionWord, AUDIT_ACTIONS, auditFilter, auditQuery, auditRows } from './audit-page.js';
import { words } from './i18n.js';
import { countTag, textOf, useStubDocument } from './stub-document.js';

// The audit log's page (a review of 7 December: the page had none, and the API only the newest 200
// rows, which a flood of refused sign-ins filled). Each action in the page's words, the query of a
// page as the upstream reads it, and a page's rows.
describe("the audit log's page", () => {
  it('names every action in each language, and an action it does not know by its code', () => {
    for (const l of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
      const t = words(l).t;
      const said = AUDIT_ACTIONS.map((a) => actionWord(t, a));
      for (const [i, a] of AUDIT_ACTIONS.entries()) assert.doesNotMatch(said[i] ?? '', /backoffice\.audit|^(sign-in|config|user|floor)/, `${l} ${a}`);
      assert.equal(new Set(said).size, said.length, `${l}: each action its own words`);
      assert.match(actionWord(t, 'made.up'), /made\.up/, l);
    }
    assert.equal(actionWord(words('en').t, 'sign-in.refused'), 'Sign-in refused');
  });

  it('asks only what is set: the action, the actor and the cursor, escaped', () => {
    assert.equal(auditQuery({}), '');
    assert.equal(auditQuery({ action: 'config.approve' }), '?action=config.approve');
    assert.equal(auditQuery({ action: 'settings.change', actor: 'ana lei&x=1', before: 120 }), '?action=settings.change&actor=ana+lei%26x%3D1&before=120');
    assert.equal(auditQuery({ actor: '', before: 7 }), '?before=7');
    assert.equal(auditQuery({ notAction: 'sign-in.refused', before: 9 }), '?notAction=sign-in.refused&before=9');
  });

  it("leaves the chosen action out when asked (every action but the refused sign-ins), in each language's words", () => {
    assert.deepEqual(auditFilter({ action: 'sign-in.refused', allBut: true, actor: ' ana ' }), { notAction: 'sign-in.refused', actor: 'ana' });
    assert.deepEqual(auditFilter({ action: 'sign-in.refused', allBut: false, actor: '' }), { action: 'sign-in.refused' });
    assert.deepEqual(auditFilter({ action: '', allBut: true, actor: '' }), {}, 'no action chosen: nothing left out');
    const said = (['en', 'pt', 'zh-Hant', 'zh-Hans'] as const).map((l) => words(l).t('backoffice.audit.allBut'));
    for (const s of said) assert.doesNotMatch(s, /backoffice\.audit/);
    for (const s of said.slice(1)) assert.notEqual(s, said[0], 'in its own language');
    assert.equal(said[0], 'Every action but this one');
  });

  it('lists a page’s rows with who, from where and what, or says there are none', () => {
    useStubDocument();
    const en = words('en');
    const page = {
      rows: [
        { id: 9, at: '2026-12-07T10:00:00.000Z', actor: 'guess', address: '10.9.9.9', action: 'sign-in.refused', detail: { reason: 'throttled' } },
        { id: 3, at: '2026-12-07T09:00:00.000Z', actor: 'ana', address: null, action: 'settings.change', detail: { change: { offlineLimitSeconds: 90 } } },
      ],
      older: 3,
    };
    const table = auditRows(en, page);
    assert.equal(countTag(table, 'tr'), 3);
    const text = textOf(table);
    for (const s of ['Sign-in refused', 'Settings changed', '10.9.9.9', 'guess', 'ana', '"offlineLimitSeconds":90', '—']) assert.ok(text.includes(s), s);
    assert.equal(textOf(auditRows(words('zh-Hant'), { rows: [], older: null })), '沒有記錄');
  });
});
