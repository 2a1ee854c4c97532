// Issue 50 item 4: a table's enrolment file for a peer, attacked first. The receiving table must
// refuse, with a reason a person can act on, a file someone wrote by hand or signed with another key
// (forged), one changed after it was made (altered), one already enrolled (replayed), one past its
// deadline (expired), and one made for another table.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TableId } from '../../terms/transfer-terms.js';
import { tableCertificate, type TableCertificate } from '../stadium/table-certificate.js';
import { checkPeerOffer, makePeerOffer, PeerOffer, type OfferHistory } from './peer-offer.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');
const EVIL = TableId.parse('evil-1');
const NOW = new Date('2026-11-27T01:00:00.000Z');
const NONE: OfferHistory = { enrolled: new Set(), newest: new Map() };

describe('a peer enrolment file (issue 50 item 4)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-offer-'));
  let bj: TableCertificate;
  let evil: TableCertificate;
  const made = (over: Partial<Parameters<typeof makePeerOffer>[0]> = {}) =>
    makePeerOffer({
      table: BJ,
      terminal: 'BJ-1',
      for: WAR,
      url: 'https://10.0.0.5:8443',
      certificate: bj,
      secret: randomBytes(32).toString('base64url'),
      credential: randomBytes(16).toString('hex'),
      issuedAt: NOW,
      ...over,
    });
  const edit = (text: string, change: (o: Record<string, unknown>) => void): string => {
    const o = JSON.parse(text) as Record<string, unknown>;
    change(o);
    return JSON.stringify(o);
  };
  const reason = (text: string, history = NONE, now = NOW, self = WAR) => {
    const r = checkPeerOffer(text, self, now, history);
    return r.ok ? 'ok' : r.reason;
  };

  before(async () => {
    bj = await tableCertificate(path.join(dir, 'bj'), BJ, ['127.0.0.1']);
    evil = await tableCertificate(path.join(dir, 'evil'), EVIL, ['127.0.0.1']);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("the file bj-1 made for war-1 is taken by war-1: bj-1's address, certificate and the secret", () => {
    const text = made();
    const r = checkPeerOffer(text, WAR, NOW, NONE);
    assert.ok(r.ok, r.ok ? '' : r.detail);
    const o = PeerOffer.parse(JSON.parse(text));
    assert.deepEqual(r.enrolment, { table: BJ, url: 'https://10.0.0.5:8443', certificate: bj.cert, fingerprint: bj.fingerprint, secret: o.secret });
    assert.equal(o.expiresAt, '2026-11-28T01:00:00.000Z', 'valid 24 hours by default');
  });

  it('refuses a forged file: hand-written without a signature, signed by another key, or with a certificate of another table', () => {
    const honest = JSON.parse(made()) as Record<string, unknown>;
    // The older, unsigned enrolment (what `enrolFloor` writes into peers.json), as an attacker would write it.
    const unsigned = { table: BJ, url: 'https://10.0.0.66:8443', certificate: bj.cert, fingerprint: bj.fingerprint, secret: 'x'.repeat(43) };
    assert.equal(reason(JSON.stringify(unsigned)), 'not-a-file');
    assert.equal(
      reason(
        edit(made(), (o) => delete o.signature),
        NONE,
      ),
      'not-a-file',
    );
    // bj-1's real certificate (public: every peer has it), the file signed with a key the attacker made.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const attackerKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const withOtherKey = makePeerOffer({
      table: BJ,
      terminal: 'BJ-1',
      for: WAR,
      url: 'https://10.0.0.66:8443',
      certificate: { ...bj, key: attackerKey },
      secret: 'y'.repeat(43),
      credential: randomBytes(16).toString('hex'),
      issuedAt: NOW,
    });
    assert.equal(reason(withOtherKey), 'signature');
    // evil-1's own certificate and key, the file claiming to be bj-1: the certificate names evil-1.
    assert.equal(reason(made({ table: EVIL, certificate: evil })), 'ok', 'evil-1 as itself: a file like any other');
    const asBj = edit(made({ table: EVIL, certificate: evil }), (o) => (o.table = BJ));
    assert.equal(reason(asBj), 'certificate');
    // bj-1's certificate with evil-1's fingerprint, or the other way round.
    assert.equal(reason(edit(made(), (o) => (o.fingerprint = evil.fingerprint))), 'certificate');
    assert.equal(reason(edit(made(), (o) => (o.certificate = evil.cert))), 'certificate');
    assert.equal(reason(edit(made(), (o) => (o.certificate = 'not a certificate'.repeat(10)))), 'certificate');
    assert.equal(reason(JSON.stringify({ ...honest, extra: 1 })), 'not-a-file');
    assert.equal(reason('not json'), 'not-a-file');
  });

  it('refuses an altered file: any field changed after the making', () => {
    const text = made();
    const changes: Record<string, (o: Record<string, unknown>) => void> = {
      url: (o) => (o.url = 'https://10.0.0.66:8443'),
      secret: (o) => (o.secret = 'z'.repeat(43)),
      terminal: (o) => (o.terminal = 'BJ-2'),
      credential: (o) => (o.credential = '0'.repeat(32)),
      issuedAt: (o) => (o.issuedAt = '2026-11-27T02:00:00.000Z'),
      expiresAt: (o) => (o.expiresAt = '2027-11-27T01:00:00.000Z'),
      for: (o) => (o.for = 'bac-1'),
      signature: (o) => (o.signature = Buffer.from(sign('sha256', Buffer.from('other'), bj.key)).toString('base64')),
    };
    for (const [field, change] of Object.entries(changes)) assert.equal(reason(edit(text, change), NONE, NOW, TableId.parse('bac-1')), 'signature', field);
    // One flipped character anywhere: never taken (a quick slice; every position of the signed fields).
    const o = JSON.parse(text) as Record<string, string>;
    for (const field of ['table', 'terminal', 'url', 'secret', 'credential', 'issuedAt', 'expiresAt', 'fingerprint'])
      for (let i = 0; i < (o[field]?.length ?? 0); i += 3) {
        const value = o[field] ?? '';
        const flipped = value.slice(0, i) + (value[i] === 'A' ? 'B' : 'A') + value.slice(i + 1);
        assert.notEqual(reason(JSON.stringify({ ...o, [field]: flipped })), 'ok', `${field}[${i}]`);
      }
  });

  it('refuses an expired file, and one dated ahead of this clock', () => {
    const text = made();
    assert.equal(reason(text, NONE, new Date(NOW.getTime() + 24 * 3600_000)), 'expired');
    assert.equal(reason(made({ validMs: 60_000 }), NONE, new Date(NOW.getTime() + 61_000)), 'expired');
    assert.equal(reason(text, NONE, new Date(NOW.getTime() + 24 * 3600_000 - 1)), 'ok');
    assert.equal(reason(text, NONE, new Date(NOW.getTime() - 6 * 60_000)), 'not-yet');
    assert.equal(reason(text, NONE, new Date(NOW.getTime() - 4 * 60_000)), 'ok', 'a clock a few minutes behind');
  });

  it('refuses a replayed file (its credential enrolled here before) and an older file after a newer one', () => {
    const text = made();
    const o = PeerOffer.parse(JSON.parse(text));
    assert.equal(reason(text, { enrolled: new Set([o.credential]), newest: new Map() }), 'replayed');
    assert.equal(reason(text, { enrolled: new Set(), newest: new Map([[BJ, '2026-11-27T01:00:00.001Z']]) }), 'superseded');
    assert.equal(reason(text, { enrolled: new Set(), newest: new Map([[BJ, '2026-11-27T00:59:59.999Z']]) }), 'ok');
  });

  it('refuses a file made for another table, or by this one', () => {
    assert.equal(reason(made({ for: TableId.parse('bac-1') })), 'not-for-us');
    assert.equal(reason(made(), NONE, NOW, BJ), 'is-self');
  });
});
