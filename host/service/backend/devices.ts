import { serviceSaid } from '../../../locales/said.js';
import { refusedBy } from '../refusal-words.js';
import type { DeviceRow } from '../../../protocol/index.js';
import type { DevicesPart } from '../service-backend.js';
import type { Changes } from './changes.js';
import type { LiveBackendDeps } from './deps.js';
import type { DeviceTrace } from './device-trace.js';
import { stationOfDevice } from './event-text.js';
import { actDetailSaid, serviceActionEntry, type ServiceJournal } from './service-journal.js';

type Deps = Pick<LiveBackendDeps, 'billAcceptors' | 'shoe'>;

/** The Devices page's rows, and the technician's switch and reconnect of a device. */
export function devices(
  d: Deps,
  trace: Pick<DeviceTrace, 'shoeIdentity'>,
  journal: ServiceJournal,
  changes: Changes,
): Pick<DevicesPart, 'list' | 'setEnabled' | 'reconnect' | 'heldNotes' | 'settleNote'> {
  return {
    list: () => [...acceptorRows(d), shoeRow(d, trace.shoeIdentity())],

    heldNotes: () => d.billAcceptors.notes.held(),

    /**
     * A person settles a note held for them (docs/service-mode.md, "A note held for a person"): its
     * end (`bill.credit`, or `bill.return`) is journalled against its escrow with the service action
     * naming them, in one transaction, and only then is the screen told.
     */
    settleNote(note, outcome, by) {
      const record = (s: { station: number; amount: number; currency: string }) =>
        serviceActionEntry(
          by,
          'note-settle',
          actDetailSaid(outcome === 'stacked' ? 'actNoteStacked' : 'actNoteReturned', {
            station: s.station,
            escrow: note.seq,
            amount: s.amount,
            currency: s.currency,
          }),
        );
      const r = d.billAcceptors.notes.settleByHand(note, outcome, by.map((n) => n.slice(0, 80)).slice(0, 2), record);
      if (!r.ok) return refusedBy(r.say);
      changes.changed();
      return {
        ok: true,
        key: outcome === 'stacked' ? 'service.done.noteStacked' : 'service.done.noteReturned',
        values: { station: r.station, amount: r.amount, currency: r.currency },
      };
    },

    setEnabled(device, enabled, who) {
      const station = stationOfDevice(device);
      if (station === null || !d.billAcceptors.hasStation(station))
        return refusedBy(serviceSaid('deviceNotSwitchable', { device: device.slice(0, 64) }), 'no-device');
      // Journalled before it takes effect: the journal is what a restart rebuilds the disable from.
      journal.test(who, device, enabled ? 'enable' : 'disable', 'done');
      d.billAcceptors.setInhibited(station, 'service-disable', !enabled);
      changes.changed();
      // Enabled by the technician, but a fault still inhibits it: say so rather than "enabled".
      if (enabled && d.billAcceptors.inhibitedBy(station).length > 0) return { ok: true, key: 'service.done.enabledInhibited', values: { device } };
      return { ok: true, key: enabled ? 'service.done.enabled' : 'service.done.disabled', values: { device } };
    },

    reconnect(device, who) {
      const station = stationOfDevice(device);
      const sim = station !== null ? d.billAcceptors.simulator(station) : device === 'shoe' ? d.shoe.simulator() : null;
      if (!sim) {
        // WIRE: reconnect of real hardware — the drivers reconnect on their own; a forced
        // re-open needs `billAcceptors.reopen(station)` / `shoe.reopen()`.
        return refusedBy(serviceSaid('deviceReconnectHardware'), 'not-available');
      }
      sim.unplug();
      sim.replug();
      journal.test(who, device, 'reconnect', 'cable unplugged and replugged');
      return { ok: true, key: 'service.done.reconnect', values: { device } };
    },
  };
}

function acceptorRows(d: Deps): DeviceRow[] {
  return d.billAcceptors.statuses().map((s) => {
    const inhibitedBy = d.billAcceptors.inhibitedBy(s.station);
    return {
      device: s.device,
      kind: 'bill-acceptor' as const,
      station: s.station,
      spec: s.spec,
      state: s.state,
      protocol: s.protocol,
      ...(s.firmware ? { firmware: s.firmware.slice(0, 128) } : {}),
      ...(s.serial ? { serial: s.serial.slice(0, 128) } : {}),
      lastEvent: s.lastEvent,
      // `enabled` is the technician's switch; a fault may inhibit the acceptor with it on.
      enabled: !inhibitedBy.includes('service-disable'),
      ...(inhibitedBy.length > 0 ? { inhibitedBy: inhibitedBy.slice(0, 16) } : {}),
    };
  });
}

function shoeRow(d: Deps, identity: { serial?: string; firmware?: string }): DeviceRow {
  const shoe = d.shoe.state();
  return {
    device: 'shoe',
    kind: 'shoe' as const,
    spec: shoe.spec,
    state: shoe.state,
    // The lid is said by the screen in its language, beside the state (never a sentence in the code).
    ...(shoe.lidOpen ? { lidOpen: true } : {}),
    ...(identity.firmware ? { firmware: identity.firmware.slice(0, 128) } : {}),
    ...(identity.serial ? { serial: identity.serial.slice(0, 128) } : {}),
    lastEvent: shoe.lastEvent,
    protocol: 'framed',
    // The shoe is the table's only card source and the round locks it between coups: service
    // mode does not switch it off; closing the table (Holds and voids) stops new rounds instead.
    enabled: true,
    switchable: false,
  };
}
