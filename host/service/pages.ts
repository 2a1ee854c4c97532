import { SERVICE_PAGE_SIZE, type EventFilter, type ServicePage, type ServicePageName } from '../../protocol/index.js';
import type { ServiceBackend } from './service-backend.js';

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
      const latest = b.programHashLatest();
      return {
        page: 'status',
        table: b.table(),
        tilts: b.tilts(),
        devices: b.devices(),
        sync: b.sync(),
        softwareVersion: b.softwareVersion,
        programHash: {
          atStart: b.programHashAtStart(),
          latest: latest?.hash ?? null,
          latestAt: latest?.at ?? null,
          ...(latest?.changed.length ? { changed: latest.changed.map((p) => p.slice(0, 128)) } : {}),
        },
      };
    }
    case 'devices':
      return { page: 'devices', device: req.device, devices: b.devices(), trace: b.trace(req.device, 60), frames: req.device ? b.frames(req.device, 80) : [] };
    case 'meters':
      return { page: 'meters', currency: b.currency, notes: b.configExtras().notes.slice(0, 16), scopes: b.meters().slice(0, 8) };
    case 'recall': {
      const r = b.recall({ station: req.station, offset: req.offset, limit: SERVICE_PAGE_SIZE.recall });
      return { page: 'recall', station: req.station, offset: req.offset, more: r.more, rounds: r.rounds };
    }
    case 'events': {
      const r = b.events({ filter: req.filter, offset: req.offset, limit: SERVICE_PAGE_SIZE.events });
      return { page: 'events', offset: req.offset, more: r.more, filter: req.filter, entries: r.entries };
    }
    case 'config':
      return { page: 'config', items: b.config().slice(0, 128), ...b.configExtras() };
    case 'holds': {
      const table = b.table();
      return { page: 'holds', table, closed: table.closed ?? !table.newBets };
    }
    case 'cashout': {
      const pending = b.pendingHandpays();
      return {
        page: 'cashout',
        pending: pending ? pending.slice(0, 16).map((p) => ({ ...p, twoPerson: p.amount > b.twoPersonHandpayAbove })) : null,
        cancelled: b.cancelledCredits(20),
        twoPersonAbove: b.twoPersonHandpayAbove,
      };
    }
    case 'tickets':
      return {
        page: 'tickets',
        ...b.tickets(),
        held: b.heldTickets().map((h) => ({ ...h, twoPerson: h.amount > b.twoPersonHandpayAbove })),
      };
    case 'sync':
      return { page: 'sync', sync: b.sync() };
    case 'stations':
      return { page: 'stations', ...b.remoteStations(viewer) };
    case 'peers':
      return { page: 'peers', ...b.peerTables(viewer) };
    case 'jackpot':
      return { page: 'jackpot', currency: b.currency, ...b.jackpot() };
  }
}
