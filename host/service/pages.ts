import { NOTES_HELD_SHOWN, SERVICE_PAGE_SIZE, type EventFilter, type ServicePage, type ServicePageName } from '../../protocol/index.js';
import type { DevicesPart, ServiceBackend } from './service-backend.js';
import { shownDevices, shownTilts } from './shown-rows.js';

/** What the signed-in screen asked to see. */
export interface PageRequest {
  page: ServicePageName;
  offset: number;
  station: number | null;
  filter: EventFilter;
  device: string | null;
}

export const FIRST_PAGE: PageRequest = { page: 'status', offset: 0, station: null, filter: {}, device: null };

/**
 * A page's content, read fresh from the backend, as the session `viewer` (its `service.enter`
 * seq) sees it; long lists are cut to one page of rows.
 */
export function buildPage(b: ServiceBackend, req: PageRequest, viewer: number): ServicePage {
  switch (req.page) {
    case 'status': {
      const latest = b.status.programHashLatest();
      return {
        page: 'status',
        table: b.holds.table(),
        tilts: shownTilts(b.status.tilts()),
        devices: shownDevices(b.devices.list()),
        sync: b.sync.summary(),
        softwareVersion: b.cabinet.softwareVersion,
        programHash: {
          atStart: b.status.programHashAtStart(),
          latest: latest?.hash ?? null,
          latestAt: latest?.at ?? null,
          ...(latest?.changed.length ? { changed: latest.changed.map((p) => p.slice(0, 128)) } : {}),
        },
      };
    }
    case 'devices':
      return devicesPage(b.devices, req.device, b.cabinet.twoPersonHandpayAbove);
    case 'meters': {
      // A page of scopes: the table and its seats first, a stadium table's remote stations on the pages after.
      const all = b.meters.scopes();
      const scopes = all.slice(req.offset, req.offset + SERVICE_PAGE_SIZE.meters);
      const more = req.offset + scopes.length < all.length;
      return { page: 'meters', currency: b.cabinet.currency, notes: b.meters.notes().slice(0, 16), offset: req.offset, more, scopes };
    }
    case 'recall': {
      const r = b.recall.rounds({ station: req.station, offset: req.offset, limit: SERVICE_PAGE_SIZE.recall });
      return { page: 'recall', station: req.station, offset: req.offset, more: r.more, rounds: r.rounds };
    }
    case 'events': {
      const r = b.events.list({ filter: req.filter, offset: req.offset, limit: SERVICE_PAGE_SIZE.events });
      return { page: 'events', offset: req.offset, more: r.more, filter: req.filter, entries: r.entries };
    }
    case 'config':
      return { page: 'config', items: b.config.items().slice(0, 128), ...b.config.extras() };
    case 'holds': {
      const table = b.holds.table();
      return { page: 'holds', table, closed: table.closed ?? !table.newBets };
    }
    case 'cashout': {
      // A page of the handpays waiting: with many remote stations, more than one page may wait at a close.
      const pending = b.cashout.pending();
      const shown = pending?.slice(req.offset, req.offset + SERVICE_PAGE_SIZE.cashout) ?? null;
      return {
        page: 'cashout',
        offset: req.offset,
        more: pending !== null && req.offset + (shown?.length ?? 0) < pending.length,
        pending: shown ? shown.map((p) => ({ ...p, twoPerson: p.amount > b.cabinet.twoPersonHandpayAbove })) : null,
        cancelled: b.cashout.cancelledCredits(20),
        twoPersonAbove: b.cabinet.twoPersonHandpayAbove,
      };
    }
    case 'tickets':
      return {
        page: 'tickets',
        ...b.tickets.page(),
        held: b.tickets.held().map((h) => ({ ...h, twoPerson: h.amount > b.cabinet.twoPersonHandpayAbove })),
        heldIn: b.tickets
          .heldIn()
          .slice(0, SERVICE_PAGE_SIZE.tickets)
          .map((h) => ({ ...h, twoPerson: h.amount > b.cabinet.twoPersonHandpayAbove })),
      };
    case 'sync':
      return { page: 'sync', sync: b.sync.summary() };
    case 'stations':
      return { page: 'stations', ...b.stations.page(viewer) };
    case 'peers':
      return { page: 'peers', ...b.peers.page(viewer) };
    case 'jackpot':
      return { page: 'jackpot', currency: b.cabinet.currency, ...b.jackpot.page() };
  }
}

/** The Devices page: every device, and the chosen one's decoded events and frames; the notes held for a person. */
function devicesPage(b: DevicesPart, device: string | null, twoPersonAbove: number): ServicePage {
  const held = b.heldNotes().slice(0, NOTES_HELD_SHOWN);
  return {
    page: 'devices',
    device,
    devices: shownDevices(b.list(), device),
    trace: b.trace(device, 60),
    frames: device ? b.frames(device, 80) : [],
    ...(held.length > 0
      ? { notesHeld: held.map((n) => ({ station: n.station, seq: n.seq, amount: n.amount, since: n.since, twoPerson: n.amount > twoPersonAbove })) }
      : {}),
  };
}
