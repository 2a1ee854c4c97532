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

/** The table's meters, the seven seats' and 40 remote stations' (101–140), in the order `readMeters` gives them. */
const SCOPES = ['table', ...Array.from({ length: 7 }, (_, i) => `station:${i + 1}`), ...Array.from({ length: 40 }, (_, i) => `station:${101 + i}`)].map(
  (scope) => ({ scope, meters: [{ name: 'totalIn', unit: 'money' as const, value: 100 }] }),
);

describe('the Meters page of a stadium table', () => {
  const withScopes = () => {
    const b = stadium();
    return { ...b, meters: { ...b.meters, scopes: () => SCOPES } };
  };
  const meters = (offset: number) => {
    const page = inSchema(buildPage(withScopes(), { ...FIRST_PAGE, page: 'meters', offset }, 1));
    assert.equal(page.page, 'meters');
    if (page.page !== 'meters') throw new Error('not the meters page');
    return page;
  };

  it('pages through every scope, a remote station’s included, and says when more follow', () => {
    const seen: string[] = [];
    let offset = 0;
    for (let n = 0; n < 10; n++) {
      const page = meters(offset);
      assert.equal(page.offset, offset);
      seen.push(...page.scopes.map((s) => s.scope));
      if (!page.more) break;
      offset += page.scopes.length;
    }
    assert.deepEqual(
      seen,
      SCOPES.map((s) => s.scope),
    );
    assert.equal(meters(0).scopes[0]?.scope, 'table', 'the first page opens with the table');
  });

  it('an offset past the end shows no scope and no more', () => {
    const page = meters(10_000);
    assert.deepEqual([page.scopes.length, page.more], [0, false]);
  });
});

describe('the Cash-out page of a stadium table', () => {
  /** 40 handpays waiting: the seven seats' and 33 remote stations' (a busy close). */
  const PENDING = [...Array.from({ length: 7 }, (_, i) => i + 1), ...Array.from({ length: 33 }, (_, i) => 101 + i)].map((station) => ({
    station,
    amount: 10_000 * station,
    requestTxId: `req-${station}`,
  }));
  const withPending = () => {
    const b = stadium();
    return { ...b, cashout: { ...b.cashout, pending: () => PENDING } };
  };
  const cashout = (offset: number) => {
    const page = inSchema(buildPage(withPending(), { ...FIRST_PAGE, page: 'cashout', offset }, 1));
    if (page.page !== 'cashout') throw new Error('not the cash-out page');
    return page;
  };

  it('pages through every handpay waiting, so each can be confirmed, and says when more follow', () => {
    const seen: string[] = [];
    let offset = 0;
    for (let n = 0; n < 10; n++) {
      const page = cashout(offset);
      assert.equal(page.offset, offset);
      seen.push(...(page.pending ?? []).map((p) => p.requestTxId));
      if (!page.more) break;
      offset += page.pending?.length ?? 0;
    }
    assert.deepEqual(
      seen,
      PENDING.map((p) => p.requestTxId),
    );
  });
});
