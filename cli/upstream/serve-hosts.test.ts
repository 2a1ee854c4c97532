// `etg upstream serve --backoffice-host`: the names the back office answers to (DNS rebinding,
// upstream/backoffice/hosts.ts). A list that is no list of host names is a usage error naming the
// option, before the database is opened: a wildcard or a URL taken as written would answer every
// name, or none, without a word.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const dir = mkdtempSync(path.join(os.tmpdir(), 'serve-hosts-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('etg upstream serve --backoffice-host', () => {
  it('refuses what is no host name, naming the option, before the database is opened', () => {
    for (const given of ['*', 'http://backoffice.casino.lan', 'backoffice.casino.lan:8787', 'ok.lan,bad name']) {
      const data = path.join(dir, 'pg');
      const cli = [path.resolve('bin/etg.js'), 'upstream', 'serve', '--data-dir', data, '--listen', '127.0.0.1:0', '--backoffice-host', given];
      const r = spawnSync(process.execPath, cli, { encoding: 'utf8', env: { ...process.env, UPSTREAM_ADMIN_TOKEN: 'a'.repeat(40) }, timeout: 30_000 });
      assert.equal(r.status, 2, `${given}: ${r.stderr}`);
      assert.match(r.stderr, /--backoffice-host/, given);
      assert.equal(existsSync(path.join(data, 'PG_VERSION')), false, `${given}: the database was made`);
    }
  });
});
