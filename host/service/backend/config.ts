import { newestEntriesOfType } from '../../../ledger/index.js';
import { NOTE_FACE_VALUES } from '../../../hardware/billacceptor/notes.js';
import { CHANGEABLE_KEYS, refusal, type ChangeRefusal } from '../../config/config-changes.js';
import { said } from '../../config/refusal-words.js';
import { tableOptions } from '../../config/table-config.js';
import { profileItems } from '../profile-items.js';
import type { ConfigItem, ConfigPage, ConfigRefusal, ConfigPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';

/** The Configuration page: every item, the changes queued and journalled; a change checked, then made by two people. */
export function configuration(d: Pick<LiveBackendDeps, 'config' | 'ledger' | 'table' | 'floor' | 'sync'>, changes: Changes): ConfigPart {
  return {
    items: () => configItems(d),
    extras: () => configExtras(d),

    check(key, value, authorisation) {
      let after: unknown;
      try {
        after = JSON.parse(value);
      } catch {
        return configRefusal(refusal(said('notJson', { setting: key.slice(0, 64), value: value.slice(0, 80) })));
      }
      const r = d.floor.configChanges.check(key, after, authorisation);
      return r.ok ? null : configRefusal(r);
    },

    change(key, value, authorisation, authorisedBy, effective) {
      let after: unknown;
      try {
        after = JSON.parse(value);
      } catch {
        const refused = configRefusal(refusal(said('notJson', { setting: key.slice(0, 64), value: value.slice(0, 80) })));
        return { ok: false, code: 'refused', detail: refused.detail, notice: refused.notice };
      }
      // Validated, journalled with before and after (config.change) and applied between rounds by the floor.
      const r = d.floor.configChanges.change(key, after, {
        who: authorisedBy[0],
        witness: authorisedBy[1],
        authorisation,
        ...(effective ? { effective } : {}),
      });
      if (!r.ok) {
        const refused = configRefusal(r);
        return { ok: false, code: 'refused', detail: refused.detail, notice: refused.notice };
      }
      changes.changed();
      const done = r.status === 'applied' ? 'service.done.configChange' : r.status === 'queued' ? 'service.done.configQueued' : 'service.done.configRestart';
      return { ok: true, key: done, values: { key } };
    },
  };
}

function configItems(d: Pick<LiveBackendDeps, 'config' | 'table' | 'sync'>): ConfigItem[] {
  const c = d.config;
  // The keys the floor's configuration changes accept are editable (as JSON, two people and the
  // regulator's reference); the rest needs a new configuration file and a restart.
  const changeable = new Set<string>(CHANGEABLE_KEYS);
  const item = (key: string, value: unknown, article?: string): ConfigItem => ({
    key,
    value: (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 400),
    ...(article ? { article } : {}),
    editable: changeable.has(key),
  });
  return [
    item('tableId', c.tableId),
    item('game', c.game),
    item('profile', c.profile),
    item('currency', c.currency),
    item('limits', c.limits),
    item('betLimits', c.betLimits ?? {}),
    item('denominations', c.denominations ?? []),
    item('seats', c.seats),
    item('timings', c.timings),
    item('defaultLanguage', c.defaultLanguage),
    item('shoe', c.shoe),
    ...c.stations.map((s) => item(`station.${s.station}`, { seat: s.seat, billAcceptor: s.billAcceptor, protocol: s.billProtocol })),
    item('upstream', d.sync ? d.sync.status().upstream : 'off'),
    item('handpayTwoPersonAbove', c.handpayTwoPersonAbove),
    item('creditLimit', c.creditLimit),
    item('roundMax', c.roundMax ?? null, d.table.game.rules.limitRules.roundMaxRule ?? undefined),
    item('profileOptions', c.profileOptions),
    item('profileAuthorisation', c.profileAuthorisation ?? ''),
    ...profileItems(c.game, c.profile, tableOptions(c), changeable.has('profileOptions')),
  ];
}

function configExtras(d: Pick<LiveBackendDeps, 'config' | 'ledger' | 'table' | 'floor'>): ConfigPage {
  const short = (v: unknown) => (v === undefined ? 'null' : JSON.stringify(v)).slice(0, 400);
  const bets = [...d.table.game.rules.bets];
  const rows = newestEntriesOfType(d.ledger, 'config.change', 8);
  return {
    notes: [...NOTE_FACE_VALUES[d.config.currency]],
    bets: bets.slice(0, 32),
    queued: d.floor.configChanges
      .queued()
      .slice(0, 16)
      .map((q) => ({ seq: q.seq, key: q.key, after: short(q.after) })),
    atRestart: d.floor.configChanges
      .forRestart()
      .slice(0, 16)
      .map((q) => ({ seq: q.seq, key: q.key, after: short(q.after) })),
    changes: rows.map((r) => {
      const p = (JSON.parse(r.body) as { payload: { key: string; before: unknown; after: unknown; who: string; witness?: string; authorisation: string } })
        .payload;
      return {
        seq: r.seq,
        ts: r.ts,
        key: p.key.slice(0, 128),
        before: short(p.before),
        after: short(p.after),
        who: p.who.slice(0, 128),
        ...(p.witness ? { witness: p.witness.slice(0, 128) } : {}),
        authorisation: p.authorisation.slice(0, 128),
      };
    }),
  };
}

/**
 * A refused configuration change as service mode says it: the refusal's key in the screen's
 * language with its parameters (a rule option refused by the engine's guard: `service.ruleRefusal.<reason>`
 * with its article; any other: `configRefusal.<name>`), its English in the host's log.
 */
function configRefusal(r: ChangeRefusal): ConfigRefusal & { notice: NonNullable<ConfigRefusal['notice']> } {
  return { detail: r.reason, notice: { key: r.say.key, values: { ...r.say.values } } };
}
