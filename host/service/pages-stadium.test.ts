// The Status and Devices pages of a stadium table. A remote station's acceptor is relayed to the
// host's own driver (the only mode of a production build, docs/stadium.md "Relay mode"), so it is a
// row of the devices beside the seated ones, and its faults (`bill-acceptor-lost` when its link
// drops…) are the table's. The pages carry at most 16 devices and 64 faults: a table with more
// remote acceptors put the Status page, the first after sign-in, out of its schema, and the
// service screen showed nothing. The page keeps to its limits, the shoe, the seated stations, the
// device chosen and the remote devices in trouble first, and the most severe faults first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServicePage, type DeviceRow } from '../../protocol/index.js';
import { buildPage, FIRST_PAGE } from './pages.js';
import type { TiltSummary } from './service-backend.js';
import { fakeBackend } from './testing/fake-backend.js';

const acceptor = (station: number, state: DeviceRow['state'] = 'ready'): DeviceRow => ({
  device: `BA-${station}`,
  kind: 'bill-acceptor',
  station,
  spec: station > 100 ? `relay:${station}` : 'sim',
  state,
  lastEvent: 'idle',
  enabled: true,
});

/** Seven seated acceptors, 40 relayed remote ones (station 140's link down), the shoe last, as the live list gives them. */
const DEVICES: DeviceRow[] = [
  ...Array.from({ length: 7 }, (_, i) => acceptor(i + 1)),
  ...Array.from({ length: 40 }, (_, i) => acceptor(101 + i, i === 39 ? 'disconnected' : 'ready')),
  { device: 'shoe', kind: 'shoe', spec: 'sim', state: 'ready', lastEvent: 'idle', protocol: 'framed', enabled: true, switchable: false },
];

/** 80 remote acceptors' links lost (a floor switch restarted), then the upstream's ledger refusal (critical). */
const TILTS: TiltSummary[] = [
  ...Array.from({ length: 80 }, (_, i): TiltSummary => ({ kind: 'bill-acceptor-lost', severity: 'warning', clearedBy: 'auto', station: 101 + i })),
  { kind: 'ledger-integrity', severity: 'critical', clearedBy: 'supervisor' },
];

function stadium() {
  const fake = fakeBackend();
  return { ...fake.backend, devices: { ...fake.backend.devices, list: () => DEVICES }, status: { ...fake.backend.status, tilts: () => TILTS } };
}

const inSchema = (page: unknown) => {
  const r = ServicePage.safeParse(page);
  assert.ok(r.success, `out of its schema: ${r.error?.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
  return r.data;
};

describe('the Status and Devices pages of a stadium table with many remote acceptors', () => {
  it('Status: within its schema; the shoe, the seated acceptors, a remote one in trouble and the critical fault are shown', () => {
    const page = inSchema(buildPage(stadium(), FIRST_PAGE, 1));
    assert.equal(page.page, 'status');
    if (page.page !== 'status') return;
    const shown = page.devices.map((d) => d.device);
    for (const d of ['shoe', 'BA-1', 'BA-7', 'BA-140']) assert.ok(shown.includes(d), `${d} is shown: ${shown.join(' ')}`);
    assert.ok(
      page.tilts?.some((t) => t.kind === 'ledger-integrity'),
      'the critical fault is shown',
    );
  });

  it('Devices: within its schema; the remote device chosen is listed', () => {
    const page = inSchema(buildPage(stadium(), { ...FIRST_PAGE, page: 'devices', device: 'BA-133' }, 1));
    assert.equal(page.page, 'devices');
    if (page.page !== 'devices') return;
    assert.ok(
      page.devices.some((d) => d.device === 'BA-133'),
      'the device chosen',
    );
  });
});
