import type { ServicePage } from '../../../../../protocol/index.js';
import { macauTime } from './time.js';
import type { PageKit } from './kit.js';

/** Remote stations: the table's LAN address and certificate, the enrolled stations, enrolment and revocation. */
export function stationsPage(page: Extract<ServicePage, { page: 'stations' }>, k: PageKit): void {
  const { t, a, sup, rows, wrap, btn } = k;
  // The table's LAN address and certificate (what an enrolment pins), then every enrolled station
  // and the next one to enrol; a new enrolment file is downloaded once, by the session that made it.
  rows.push(page.lan ? t('service.field.lan', { lan: page.lan }) : t('service.field.noRemote'));
  if (page.fingerprint) wrap(t('service.field.fingerprint', { fingerprint: page.fingerprint }));
  const enrolled = page.stations.filter((x) => x.enrolled || x.download);
  rows.push(t('service.field.enrolledCount', { n: page.stations.filter((x) => x.enrolled).length, of: page.stations.length }));
  for (const x of enrolled.slice(0, 16))
    rows.push(
      '  ' +
        t('service.field.stationRow', {
          station: x.station,
          since: x.enrolledAt ? macauTime(x.enrolledAt) : '—',
          screen: t(x.screen ? 'service.field.connected' : 'service.field.notConnected'),
          acceptor: t(x.acceptor ? 'service.field.connected' : 'service.field.notConnected'),
        }),
    );
  const next = page.stations.find((x) => !x.enrolled);
  if (next)
    btn(
      `station-enrol-${next.station}`,
      `${t('service.action.station-enrol')} ${next.station}`,
      () => a.act({ kind: 'station-enrol', station: next.station }),
      sup,
    );
  for (const x of enrolled.slice(0, 6)) {
    if (x.download)
      btn(
        `station-download-${x.station}`,
        `${t('service.action.station-download')} ${x.station}`,
        () => a.download(`/service/export/enrolment/${x.station}`),
        sup,
      );
    else if (x.enrolled)
      btn(
        `station-revoke-${x.station}`,
        `${t('service.action.station-revoke')} ${x.station}`,
        () => a.act({ kind: 'station-revoke', station: x.station }),
        sup,
      );
  }
}
