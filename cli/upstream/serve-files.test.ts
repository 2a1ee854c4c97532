// A file given to `etg upstream serve` that does not read. A token file empty or missing: before, an empty
// --admin-token-file was read as none: with --data-dir the service started on the token it keeps
// in its folder instead, the operator's file silently ignored; an empty --query-token-file or
// --metrics-token-file switched that token off without a word; a missing one said only ENOENT.
// A TLS certificate or key that is not PEM, or a key not the certificate's: before, OpenSSL's words
// alone ("error:0480006C:PEM routines::no start line"), naming neither file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { tableCertificate } from '../../host/stadium/table-certificate.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'serve-token-files-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const GOOD = path.join(dir, 'admin');
writeFileSync(GOOD, `${'a'.repeat(40)}\n`);
const EMPTY = path.join(dir, 'empty');
writeFileSync(EMPTY, '\n');

function serve(args: string[]): { status: number | null; stderr: string } {
  const cli = [path.resolve('bin/etg.js'), 'upstream', 'serve', '--data-dir', path.join(dir, 'pg'), '--listen', '127.0.0.1:0', ...args];
  const env = { ...process.env, UPSTREAM_ADMIN_TOKEN: '', UPSTREAM_QUERY_TOKEN: '', UPSTREAM_METRICS_TOKEN: '' };
  const r = spawnSync(process.execPath, cli, { encoding: 'utf8', env, timeout: 30_000 });
  return { status: r.status, stderr: r.stderr };
}

describe('etg upstream serve: a token file that is empty or missing', () => {
  it('is refused naming the option and the file, before anything starts', () => {
    const cases: [string[], RegExp][] = [
      [['--admin-token-file', EMPTY], /--admin-token-file .*empty.* is empty/],
      [['--admin-token-file', GOOD, '--query-token-file', EMPTY], /--query-token-file .*empty.* is empty/],
      [['--admin-token-file', GOOD, '--metrics-token-file', EMPTY], /--metrics-token-file .*empty.* is empty/],
      [['--admin-token-file', path.join(dir, 'none')], /--admin-token-file .*none.* cannot be read \(ENOENT/],
    ];
    for (const [args, said] of cases) {
      const r = serve(args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, said);
    }
  });

  it('a TLS certificate or key that is not PEM, or a key that is not the certificate’s, is refused naming the files', async () => {
    const notPem = path.join(dir, 'not.pem');
    writeFileSync(notPem, '{"not": "pem"}');
    // Two certificates made as a table makes its own: the first's certificate with the second's key.
    const one = await tableCertificate(path.join(dir, 't1'), 'T1', ['127.0.0.1']);
    const two = await tableCertificate(path.join(dir, 't2'), 'T2', ['127.0.0.1']);
    const cert = path.join(dir, 'cert.pem');
    const otherKey = path.join(dir, 'other-key.pem');
    writeFileSync(cert, one.cert);
    writeFileSync(otherKey, two.key);
    const cases: [string[], RegExp][] = [
      [
        ['--tls-cert', cert, '--tls-key', otherKey],
        /--tls-cert .*cert\.pem and --tls-key .*other-key\.pem are not a certificate and its private key in PEM \(.*mismatch/,
      ],
      [['--tls-cert', notPem, '--tls-key', notPem], /--tls-cert .*not\.pem and --tls-key .*not\.pem are not a certificate and its private key in PEM/],
      [['--tls-cert', path.join(dir, 'none.pem'), '--tls-key', notPem], /--tls-cert .*none\.pem cannot be read \(ENOENT/],
    ];
    for (const [args, said] of cases) {
      const r = serve(['--admin-token-file', GOOD, ...args]);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, said);
    }
  });
});
