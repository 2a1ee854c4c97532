// One reference, one reset (docs/rules/blackjack.md): the authority's reference as a person types
// it. An attendant on a Chinese input method types full-width letters and digits ('ＩＧＪ－１７'),
// another the same reference in another case or with blanks around it: each is the same reference,
// and a reset asked under it again is refused. The reference is journalled in one form (NFKC, case
// folded, trimmed); a journal written before that, holding it as typed, is compared in that form too.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_JACKPOT_PROGRAM } from '../../../engine/blackjack/jackpot/program.js';
import type { JournalEntry, Ledger } from '../../../ledger/index.js';
import { testTable } from '../../testing/table-kit.js';
import type { Changes } from './changes.js';
import { jackpot } from './jackpot.js';

const BY: [string, string] = ['Ana Lei (1001)', 'Bo Chan (1002)'];
const changes = { changed: () => undefined, onChange: () => () => undefined } as unknown as Changes;
const portugal = () => ({
  game: 'blackjack' as const,
  config: {
    profile: 'portugal-2001' as const,
    profileAuthorisation: 'TEST-IGJ',
    profileOptions: { jackpot: true, jackpotCards: 3 as const, jackpotProgram: EXAMPLE_JACKPOT_PROGRAM },
  },
});
const resets = (ledger: Ledger): JournalEntry[] => [...ledger.entries(1)].filter((e) => e.type === 'jackpot.reset');
const authorisationOf = (e: JournalEntry | undefined) => (JSON.parse(e?.body ?? '{}') as { payload: { authorisation?: string } }).payload.authorisation;

describe('a jackpot authorisation reference, typed another way', () => {
  it('full-width, another case, blanks around (ASCII and ideographic): the same reference, refused again', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      assert.equal(page.reset('main', 2_000_000, 'IGJ-2026-17', BY).ok, true);
      for (const typed of [
        'ＩＧＪ－２０２６－１７',
        'ｉｇｊ－２０２６－１７',
        'igj-2026-17',
        '  Igj-2026-17  ',
        '\u3000IGJ-2026-17\u3000',
        'ＩＧＪ-2026-17 ',
      ]) {
        const again = page.reset('main', 2_500_000, typed, BY);
        assert.ok(!again.ok, `'${typed}' is the used reference: ${JSON.stringify(again)}`);
        assert.equal(again.notice?.key, 'serviceRefusal.jackpotAuthorisationUsed', typed);
        assert.equal(again.notice?.values?.authorisation, 'IGJ-2026-17', 'named as journalled');
      }
      assert.equal(resets(t.ledger).length, 1, 'one reset for one reference');
      assert.equal(page.reset('main', 2_500_000, 'ＩＧＪ－２０２６－１８', BY).ok, true, 'another reference, full-width, resets');
      assert.equal(resets(t.ledger).length, 2);
    } finally {
      t.close();
    }
  });

  it('is journalled in one form: full-width, lower case and blanks typed, the letters and digits the paper shows', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      assert.equal(page.reset('main', 2_000_000, ' \u3000ａｂ１２ ', BY).ok, true);
      assert.equal(authorisationOf(resets(t.ledger)[0]), 'AB12');
      const again = page.reset('minor', 1_000_000, 'AB12', BY);
      assert.ok(!again.ok);
      assert.equal(again.notice?.key, 'serviceRefusal.jackpotAuthorisationUsed');
    } finally {
      t.close();
    }
  });

  it('a reference journalled as typed before (full-width, lower case) is still the same reference', () => {
    const t = testTable(portugal());
    try {
      // A journal from before the form: the table took the reference as it was typed.
      const old = t.table.input({
        kind: 'jackpot-reset',
        at: Date.now(),
        level: 'main',
        to: 2_000_000,
        supervisor: BY[0],
        witness: BY[1],
        authorisation: ' ｉｇｊ－９ ',
      });
      assert.equal(old.ok, true, JSON.stringify(old));
      assert.equal(authorisationOf(resets(t.ledger)[0]), ' ｉｇｊ－９ ');
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      for (const typed of ['IGJ-9', 'ＩＧＪ－９', 'igj-9']) {
        const again = page.reset('main', 2_500_000, typed, BY);
        assert.ok(!again.ok, typed);
        assert.equal(again.notice?.key, 'serviceRefusal.jackpotAuthorisationUsed', typed);
        assert.equal(again.notice?.values?.authorisation, ' ｉｇｊ－９ ', 'named as the journal holds it');
      }
      assert.equal(resets(t.ledger).length, 1);
    } finally {
      t.close();
    }
  });

  it('a reference within the 64 characters typed that normalises past the 128 journalled: refused as too long, nothing journalled', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      // 'ﬃ' (one character, a ligature) is 'FFI' in NFKC, '㎏' is 'KG', 'ß' upper case 'SS', U+FDFA
      // eighteen characters: each typed within 64, past 128 in the one form (the second by one).
      for (const typed of ['IGJ-' + 'ﬃ'.repeat(60), '㎏'.repeat(63) + 'ﬃ', 'ß'.repeat(63) + '\uFDFA']) {
        assert.ok(typed.length <= 64, typed);
        const r = page.reset('main', 2_000_000, typed, BY);
        assert.equal(r.ok, false, typed);
        assert.equal(r.notice?.key, 'serviceRefusal.jackpotAuthorisationTooLong', JSON.stringify(r));
        assert.equal(r.notice?.values?.max, 128);
        assert.ok(Number(r.notice?.values?.length) > 128, JSON.stringify(r.notice?.values));
      }
      assert.equal(resets(t.ledger).length, 0, 'nothing reset');
      assert.equal([...t.ledger.entries(1)].filter((e) => e.type === 'service.action').length, 0, 'nor its record');
    } finally {
      t.close();
    }
  });

  it('a reference that normalises to exactly 128 characters is taken and journalled whole', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      // 'ß' upper-cases to 'SS': 64 typed, 128 journalled.
      assert.equal(page.reset('main', 2_000_000, 'ß'.repeat(64), BY).ok, true);
      assert.equal(authorisationOf(resets(t.ledger)[0]), 'SS'.repeat(64));
    } finally {
      t.close();
    }
  });

  it('a reference of blanks only (an ideographic space) is none: refused by key, nothing journalled', () => {
    const t = testTable(portugal());
    try {
      const page = jackpot({ ledger: t.ledger, table: t.table, config: t.config } as never, changes);
      const r = page.reset('main', 2_000_000, '\u3000', BY);
      assert.equal(r.ok, false);
      assert.equal(r.notice?.key, 'serviceRefusal.jackpotNoAuthorisation');
      assert.equal(resets(t.ledger).length, 0);
    } finally {
      t.close();
    }
  });
});
