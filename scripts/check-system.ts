// `npm test` needs four Debian packages besides Node's own toolchain: Debian's Chromium for the
// browser tests, the Noto CJK fonts they draw Chinese with, PostgreSQL for the sync tests'
// throwaway cluster, and socat for the serial transport's pseudo-terminal pair. Say what is
// missing at once, with the command that installs it, rather than after ten minutes of Node tests. `.ci/run` installs them before it runs `npm test`.
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

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(`${dir}/${command}`));
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = [
  ...(existsSync(chromium) ? [] : [{ pkg: 'chromium', why: `the browser tests drive it at ${chromium} (CHROMIUM_PATH overrides)` }]),
  ...(hasCjkFonts() ? [] : [{ pkg: 'fonts-noto-cjk', why: 'the screens draw Traditional Chinese with Noto Sans CJK' }]),
  ...(hasPostgres() ? [] : [{ pkg: 'postgresql', why: 'the sync tests start their own PostgreSQL cluster (initdb, pg_ctl)' }]),
  ...(onPath('socat') ? [] : [{ pkg: 'socat', why: 'the serial transport test links two pseudo-terminals with it' }]),
];
if (missing.length > 0) {
  console.error('npm test needs Debian packages this machine does not have:');
  for (const m of missing) console.error(`  ${m.pkg}: ${m.why}`);
  console.error(`Install them with:\n  sudo apt-get install -y --no-install-recommends ${missing.map((m) => m.pkg).join(' ')}`);
  console.error('(.ci/run does this on a fresh machine before it runs npm test.)');
  process.exit(1);
}
