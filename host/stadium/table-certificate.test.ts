import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readTableCertificate, tableCertificate } from './table-certificate.js';

// The table's TLS pair in `<data>/tls/` is a file on disk: a bad restore, a disk fault or a hand
// that copied one table's key beside another's certificate. Before, the host's start (its LAN
// listener, a peer's offer, an edge) failed with OpenSSL's words ("DECODER routines::unsupported",
// "key values mismatch", "PEM routines::no start line"), naming no file.

describe('the table certificate files', () => {
  let dir: string;
  const tls = (table: string, file: string) => path.join(dir, table, 'tls', file);
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'table-cert-'));
    await tableCertificate(path.join(dir, 'ok'), 'T1', ['127.0.0.1']);
    await tableCertificate(path.join(dir, 'other'), 'T2', ['127.0.0.1']);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a pair written at the first start reads back the same, every time', async () => {
    const first = readTableCertificate(path.join(dir, 'ok')) ?? assert.fail('no certificate');
    const again = await tableCertificate(path.join(dir, 'ok'), 'T1', ['127.0.0.1']);
    assert.equal(again.fingerprint, first.fingerprint);
    assert.equal(again.key, readFileSync(tls('ok', 'table-key.pem'), 'utf8'));
  });

  const broken: [string, (table: string) => void][] = [
    ['a key that is not a key', (t) => writeFileSync(tls(t, 'table-key.pem'), 'hello')],
    ["another table's key beside this certificate", (t) => copyFileSync(tls('other', 'table-key.pem'), tls(t, 'table-key.pem'))],
    ['a certificate that is not one', (t) => writeFileSync(tls(t, 'table-cert.pem'), 'x')],
    ['an empty certificate', (t) => writeFileSync(tls(t, 'table-cert.pem'), '')],
  ];
  for (const [what, damage] of broken) {
    it(`${what}: refused, naming both files and what to do, and never replaced`, async () => {
      const table = `bad-${broken.findIndex(([w]) => w === what)}`;
      await tableCertificate(path.join(dir, table), 'T3', ['127.0.0.1']);
      damage(table);
      const key = readFileSync(tls(table, 'table-key.pem'), 'utf8');
      for (const read of [() => readTableCertificate(path.join(dir, table)), () => tableCertificate(path.join(dir, table), 'T3', ['127.0.0.1'])]) {
        await assert.rejects(
          async () => read(),
          (e: Error) => {
            assert.match(e.message, new RegExp(`${tls(table, 'table-key.pem').replaceAll('/', '\\/')}`));
            assert.match(e.message, /table-cert\.pem/);
            assert.match(e.message, /restore .*backup/);
            return true;
          },
        );
      }
      // A new pair would cut every remote station and peer that pins this one: never made silently.
      assert.equal(readFileSync(tls(table, 'table-key.pem'), 'utf8'), key);
    });
  }
});
