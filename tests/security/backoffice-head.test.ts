// HEAD of the back office's audited reads. Fastify answers HEAD of every GET route with the GET's
// handler and drops the body: a HEAD of the gaming day's report or of a round's evidence bundle did
// the whole work and wrote `report.read` / `round.evidence` to the audit log, with the digest of
// bytes nobody received, as if the person had read them (an uptime probe or a link checker holding a
// copied cookie filled the log with reads that never were). Those routes refuse HEAD (405, Allow:
// GET) before any work; GET still reads and is audited.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kitOfSuite } from './backoffice-kit.js';

const READS = [
  '/backoffice/api/reports/gaming-day?date=2026-11-26',
  '/backoffice/api/reports/plots?date=2026-11-26',
  '/backoffice/api/tables/t-1/rounds/r-1/evidence',
  // The table page, the floor, the alarms, the audit log, the configuration requests: each reads the
  // database in full for a body a HEAD drops (the table page six queries and the tickets).
  '/backoffice/api/tables/t-1',
  '/backoffice/api/floor',
  '/backoffice/api/alarms',
  '/backoffice/api/audit',
  '/backoffice/api/config-requests',
  '/backoffice/api/settings',
  '/backoffice/api/session',
];

describe('HEAD of an audited read', () => {
  const held = kitOfSuite('administrator');
  const audited = async () =>
    Number((await held.kit.db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM audit_log WHERE action IN ('report.read', 'round.evidence')")).rows[0]?.n);

  it('is refused with 405 and Allow: GET, and writes nothing to the audit log', async () => {
    const { app } = held.kit;
    const before = await audited();
    for (const url of READS) {
      const r = await app.inject({ method: 'HEAD', url, headers: { cookie: held.who.cookie } });
      assert.equal(r.statusCode, 405, `${url}: ${r.statusCode}`);
      assert.equal(r.headers.allow, 'GET', url);
      assert.equal(r.headers['cache-control'], 'no-store', url);
    }
    assert.equal(await audited(), before, 'a HEAD is no read of the report or the evidence');
  });

  it('GET still reads and is audited, once each', async () => {
    const { app } = held.kit;
    const before = await audited();
    const report = await app.inject({ method: 'GET', url: READS[0], headers: { cookie: held.who.cookie } });
    assert.equal(report.statusCode, 200, report.body);
    const evidence = await app.inject({ method: 'GET', url: READS[2], headers: { cookie: held.who.cookie } });
    assert.equal(evidence.statusCode, 404, evidence.body);
    assert.equal(await audited(), before + 2);
  });
});
