import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { exportFolder, exportTarget, isPrintableExport, removableMounts, savePath } from './exports.js';

const HOST = 'http://127.0.0.1:43117';

describe('service exports under Electron', () => {
  it('forwards the export paths asked on app://kiosk to the host, token and query kept', () => {
    assert.equal(exportTarget('app://kiosk/service/export/meters.csv?t=abc', HOST), `${HOST}/service/export/meters.csv?t=abc`);
    assert.equal(exportTarget('app://kiosk/service/export/meters.html?lang=pt&t=abc', HOST), `${HOST}/service/export/meters.html?lang=pt&t=abc`);
    assert.equal(exportTarget('app://kiosk/service/export/evidence/SIM-BJ-01%3A42?t=abc', HOST), `${HOST}/service/export/evidence/SIM-BJ-01%3A42?t=abc`);
  });

  it('forwards nothing else: screens, other hosts and schemes, climbs out of the folder, a remote host origin', () => {
    for (const url of [
      'app://kiosk/service',
      'app://kiosk/assets/index.js',
      'app://kiosk/service/export/../../healthz',
      'app://kiosk/service/export/%2e%2e/%2e%2e/healthz',
      'app://kiosk/service/export/evidence/a%2Fb',
      'app://kiosk/service/export/meters.xml?t=x',
      'app://other/service/export/meters.csv?t=x',
      'https://kiosk/service/export/meters.csv?t=x',
      'not a url',
    ])
      assert.equal(exportTarget(url, HOST), null, url);
    assert.equal(exportTarget('app://kiosk/service/export/meters.csv?t=x', 'http://10.0.0.5:80'), null, 'the host is loopback only');
  });

  it('lets only the printable report open a window', () => {
    assert.equal(isPrintableExport('app://kiosk/service/export/meters.html?lang=en&t=x'), true);
    assert.equal(isPrintableExport('app://kiosk/service/export/meters.csv?t=x'), false);
    assert.equal(isPrintableExport('https://example.com/service/export/meters.html'), false);
  });

  it("saves on the first writable removable medium, else in the data folder's exports", () => {
    const mounts = [
      'sysfs /sys sysfs rw,nosuid 0 0',
      '/dev/sda1 / ext4 rw,relatime 0 0',
      '/dev/sdc1 /media/kiosk/READONLY vfat ro,nosuid 0 0',
      '/dev/sdb1 /media/kiosk/USB\\040STICK vfat rw,nosuid,nodev 0 0',
      'tmpfs /run/media/kiosk/ram tmpfs rw 0 0',
    ].join('\n');
    assert.deepEqual(removableMounts(mounts), ['/media/kiosk/USB STICK']);
    assert.equal(exportFolder('/data', removableMounts(mounts)), '/media/kiosk/USB STICK');
    assert.equal(exportFolder('/data', []), path.join('/data', 'exports'));
  });

  it('never overwrites a file and never takes a path from the host', () => {
    const taken = new Set(['/x/meters.csv', '/x/meters-1.csv']);
    assert.equal(
      savePath('/x', 'meters.csv', (f) => taken.has(f)),
      '/x/meters-2.csv',
    );
    assert.equal(
      savePath('/x', '../../etc/passwd', () => false),
      '/x/passwd',
    );
    assert.equal(
      savePath('/x', '..', () => false),
      '/x/export',
    );
  });
});
