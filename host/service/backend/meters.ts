import { jackpotPools } from '../../../ledger/index.js';
import { NOTE_FACE_VALUES } from '../../../hardware/billacceptor/notes.js';
import { compareMeters, meterUnit, metersOf } from '../../../protocol/index.js';
import { journalDrop } from '../../floor/cashbox-drop.js';
import { inEnglish, journalSaidOf, serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { MeterScope, MetersPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import { actDetailSaid, serviceActionEntry } from './service-journal.js';

/** Every scope's meters: the table's, then each station's, every meter of the catalogue listed (zero until counted). */
export function readMeters(d: Pick<LiveBackendDeps, 'ledger' | 'config'>): MeterScope[] {
  const all = d.ledger.meters();
  const scopes = new Map<string, Map<string, number>>();
  // Every configured station and every meter of the catalogue is listed, zero until counted.
  const notes = (d.config.denominations ?? NOTE_FACE_VALUES[d.config.currency]).map((n) => n * 100);
  for (const scope of ['table', ...d.config.stations.map((s) => `station:${s.station}`)]) scopes.set(scope, new Map(metersOf(scope, notes).map((n) => [n, 0])));
  for (const [key, value] of Object.entries(all)) {
    const cut = key.indexOf('/');
    const scope = key.slice(0, cut);
    const list = scopes.get(scope) ?? new Map<string, number>();
    list.set(key.slice(cut + 1), value);
    scopes.set(scope, list);
  }
  // Each progressive level's pool, from its liability account (a balance, not a meter: it goes down on a hit).
  for (const { level, pool } of jackpotPools(d.ledger)) scopes.get('table')?.set(`progressivePool.${level}`, pool);
  const order = (s: string) => (s === 'table' ? 0 : Number(s.split(':')[1] ?? 99));
  return [...scopes.entries()]
    .sort((a, b) => order(a[0]) - order(b[0]))
    .map(([scope, meters]) => ({
      scope,
      meters: [...meters].sort((a, b) => compareMeters(a[0], b[0])).map(([name, value]) => ({ name, unit: meterUnit(name), value })),
    }));
}

/** The Meters page, a meter clear (two people, the regulator's reference) and a cashbox drop count. */
export function meters(d: Pick<LiveBackendDeps, 'ledger' | 'config' | 'stadium' | 'log'>, changes: Changes): Omit<MetersPart, 'csv' | 'json' | 'html'> {
  return {
    scopes: () => readMeters(d),
    notes: () => [...NOTE_FACE_VALUES[d.config.currency]],

    clear(scope, authorisation, given, authorisedBy) {
      // What was done, by key for the event log; the reason a person gave, else the same in English.
      const say = journalSaidOf('meterClear', { scope, authorisation });
      const reason = given ?? inEnglish(say);
      // One transaction: a clear refused with its record is not journalled, so a retry clears once.
      // The act's detail by key too: the scope, the reference, the person's own reason as given.
      const act =
        given === undefined
          ? actDetailSaid('actMeterClear', { scope, authorisation })
          : actDetailSaid('actMeterClearWhy', { scope, authorisation, reason: given });
      d.ledger.appendMany([
        { type: 'meter.clear', payload: { who: authorisedBy.join(' / '), authorisation, scope, reason, say } },
        serviceActionEntry(authorisedBy, 'meter-clear', act),
      ]);
      changes.changed();
      return { ok: true, key: 'service.done.meterClear', values: { scope } };
    },

    dropCount(station, notes, authorisedBy) {
      const stations = [...d.config.stations.map((s) => s.station), ...(d.stadium?.stations() ?? [])];
      if (!stations.includes(station)) return refusedBy(serviceSaid('dropNoStation', { station }));
      const faces = NOTE_FACE_VALUES[d.config.currency];
      const wrong = notes.find((n) => !faces.includes(n.note));
      if (wrong) return refusedBy(serviceSaid('dropNoSuchNote', { currency: d.config.currency, note: wrong.note }));
      if (new Set(notes.map((n) => n.note)).size !== notes.length) return refusedBy(serviceSaid('dropCountedTwice'));
      const counted = new Map(notes.map((n) => [n.note, n.count]));
      const { seq, payload: p } = journalDrop(d.ledger, { station, currency: d.config.currency, counted, authorisedBy });
      d.log.info({ station, seq, counted: p.counted, credited: p.credited, difference: p.difference }, 'cashbox drop counted');
      changes.changed();
      return {
        ok: true,
        key: 'service.done.cashboxDrop',
        values: { station, counted: p.counted, credited: p.credited, difference: p.difference, currency: d.config.currency },
      };
    },
  };
}
