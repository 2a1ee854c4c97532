// `npm test` needs four Debian packages besides Node's own toolchain: Debian's Chromium for the
// browser tests, the Noto CJK fonts they draw Chinese with, PostgreSQL for the sync tests'
// throwaway cluster, and systemd for systemd-analyze (the deploy checks). Say what is missing at once, with the command that installs it, rather than
// after ten minutes of Node tests. `.ci/run` installs them before it runs `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

function hasCjkFonts(): boolean {
  try {
    return /Noto Sans CJK/.test(execFileSync('fc-list', { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

/** Debian's layout, where the sync tests look first (upstream/local-cluster.ts). */
function hasPostgres(): boolean {
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((v) => existsSync(`${root}/${v}/bin/initdb`) && existsSync(`${root}/${v}/bin/pg_ctl`));
}

/** The deploy checks verify the systemd units with it (deploy/deploy.test.ts). */
function hasSystemdAnalyze(): boolean {
  return existsSync('/usr/bin/systemd-analyze') || existsSync('/bin/systemd-analyze');
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = [
  ...(existsSync(chromium) ? [] : [{ pkg: 'chromium', why: `the browser tests drive it at ${chromium} (CHROMIUM_PATH overrides)` }]),
  ...(hasCjkFonts() ? [] : [{ pkg: 'fonts-noto-cjk', why: 'the screens draw Traditional Chinese with Noto Sans CJK' }]),
  ...(hasPostgres() ? [] : [{ pkg: 'postgresql', why: 'the sync tests start their own PostgreSQL cluster (initdb, pg_ctl)' }]),
  ...(hasSystemdAnalyze() ? [] : [{ pkg: 'systemd', why: 'the deploy checks run systemd-analyze verify on the units in deploy/systemd' }]),
];
if (missing.length > 0) {
  console.error('npm test needs Debian packages this machine does not have:');
  for (const m of missing) console.error(`  ${m.pkg}: ${m.why}`);
  console.error(`Install them with:\n  sudo apt-get install -y --no-install-recommends ${missing.map((m) => m.pkg).join(' ')}`);
  console.error('(.ci/run does this on a fresh machine before it runs npm test.)');
  process.exit(1);
}
