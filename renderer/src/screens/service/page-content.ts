import type { TFunction } from 'i18next';
import type { ServicePage, ServiceState } from '../../../../protocol/index.js';
import { cashoutPage } from './pages/cashout-page.js';
import type { PageActions, PageButton, PageChoices } from './pages/choices.js';
import { configPage } from './pages/config-page.js';
import { devicesPage } from './pages/devices-page.js';
import { eventsPage } from './pages/events-page.js';
import { holdsPage } from './pages/holds-page.js';
import { jackpotPage } from './pages/jackpot-page.js';
import { pageKit } from './pages/kit.js';
import { metersPage } from './pages/meters-page.js';
import { peersPage } from './pages/peers-page.js';
import { recallPage } from './pages/recall-page.js';
import { stationsPage } from './pages/stations-page.js';
import { statusPage } from './pages/status-page.js';
import { syncPage } from './pages/sync-page.js';
import { ticketsPage } from './pages/tickets-page.js';

/**
 * The rows and buttons of one page, in the screen's language. Each page is drawn by its own file
 * in `pages/`; this only picks it.
 */
export function pageContent(state: ServiceState, page: ServicePage, t: TFunction, c: PageChoices, a: PageActions): { rows: string[]; buttons: PageButton[] } {
  const k = pageKit(state, t, c, a);
  switch (page.page) {
    case 'status':
      statusPage(page, k);
      break;
    case 'devices':
      devicesPage(page, k);
      break;
    case 'meters':
      metersPage(page, k);
      break;
    case 'recall':
      recallPage(page, k);
      break;
    case 'events':
      eventsPage(page, k);
      break;
    case 'config':
      configPage(page, k);
      break;
    case 'holds':
      holdsPage(page, k);
      break;
    case 'cashout':
      cashoutPage(page, k);
      break;
    case 'tickets':
      ticketsPage(page, k);
      break;
    case 'sync':
      syncPage(page, k);
      break;
    case 'stations':
      stationsPage(page, k);
      break;
    case 'peers':
      peersPage(page, k);
      break;
    case 'jackpot':
      jackpotPage(page, k);
      break;
  }
  return { rows: k.rows, buttons: k.buttons };
}
