// `npm test` runs this first: the Debian packages the tests need (Chromium for the browser tests,
// the Noto CJK fonts they draw Chinese with, PostgreSQL for the sync tests' throwaway cluster,
// systemd for `systemd-analyze verify` on the units in deploy/, socat for the serial transport's
// pseudo-terminal pair, nats-server for the stadium's edges, swtpm and tpm2-tools for the ledger witness's key sealed in a TPM) are
// installed where this user may, or the run stops within seconds with the command that installs
// them, rather than after ten minutes of Node tests. scripts/system-needs.ts decides.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { machineLine, machineSpeed } from './machine-speed.js';
import { installLine, plan, type Abilities, type Need } from './system-needs.js';

function hasCjkFonts(): boolean {
  try {
    return /Noto Sans CJK/.test(execFileSync('fc-list', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return false;
  }
}

/** Debian's layout, where the sync tests look first (upstream/local-cluster.ts). */
function hasPostgres(): boolean {
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((v) => existsSync(`${root}/${v}/bin/initdb`) && existsSync(`${root}/${v}/bin/pg_ctl`));
}

/** The serial transport test links two pseudo-terminals with it (hardware/transport/serial.e2e.test.ts). */
function hasSocat(): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(`${dir}/socat`));
}

/** The deploy checks verify the systemd units with it (deploy/deploy.test.ts). */
function hasSystemdAnalyze(): boolean {
  return existsSync('/usr/bin/systemd-analyze') || existsSync('/bin/systemd-analyze');
}

/** The witness's TPM test runs a software TPM and seals through tpm2-tools (witness/tpm.test.ts). */
function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(`${dir}/${tool}`));
}

/** tpm2-tools reach swtpm through this TCTI library (Debian's libtss2-tcti-swtpm0). */
function hasSwtpmTcti(): boolean {
  return ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].some((d) => existsSync(`${d}/libtss2-tcti-swtpm.so.0`));
}

function missingNeeds(): Need[] {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return [
    ...(existsSync(chromium) ? [] : [{ pkg: 'chromium', why: `the browser tests drive it at ${chromium} (CHROMIUM_PATH overrides)` }]),
    ...(hasCjkFonts() ? [] : [{ pkg: 'fonts-noto-cjk', why: 'the screens draw Traditional Chinese with Noto Sans CJK' }]),
    ...(hasPostgres() ? [] : [{ pkg: 'postgresql', why: 'the sync tests start their own PostgreSQL cluster (initdb, pg_ctl)' }]),
    ...(hasSystemdAnalyze() ? [] : [{ pkg: 'systemd', why: 'the deploy checks run systemd-analyze verify on the units in deploy/systemd' }]),
    ...(hasSocat() ? [] : [{ pkg: 'socat', why: 'the serial transport test links two pseudo-terminals with it' }]),
    ...(onPath('swtpm') ? [] : [{ pkg: 'swtpm', why: "the ledger witness's TPM test seals its key in a software TPM" }]),
    ...(onPath('tpm2_unseal') ? [] : [{ pkg: 'tpm2-tools', why: 'the ledger witness seals and unseals its key with tpm2-tools' }]),
    ...(existsSync('/usr/sbin/nats-server') || onPath('nats-server')
      ? []
      : [{ pkg: 'nats-server', why: "the edges' tests start a NATS server with JetStream (host/edges/nats-server.ts)" }]),
    ...(hasSwtpmTcti() ? [] : [{ pkg: 'libtss2-tcti-swtpm0', why: 'tpm2-tools reach the software TPM through it' }]),
  ];
}

function abilities(): Abilities {
  const root = process.getuid?.() === 0;
  const allowed = process.env.CHECK_SYSTEM_INSTALL !== 'no';
  // Asked only when it matters; -n fails at once instead of prompting for a password.
  const sudo = !root && allowed && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  return { apt: existsSync('/usr/bin/apt-get'), root, sudo, allowed };
}

// First, so a run's log says what machine its times were taken on (scripts/machine-speed.ts).
console.log(machineLine(machineSpeed()));

const missing = missingNeeds();
const decided = plan(missing, abilities());
if (decided.kind === 'install') {
  console.error(`npm test needs Debian packages this machine does not have; installing: ${decided.packages.join(' ')}`);
  for (const command of decided.commands) {
    const [program = 'apt-get', ...args] = command;
    const r = spawnSync(program, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) break;
  }
}
const still = decided.kind === 'install' ? missingNeeds() : missing;
if (still.length > 0) {
  console.error('npm test needs Debian packages this machine does not have:');
  for (const m of still) console.error(`  ${m.pkg}: ${m.why}`);
  if (decided.kind === 'stop') console.error(`(${decided.reason})`);
  else if (decided.kind === 'install') console.error('(installing them failed: see apt-get above)');
  console.error(`Install them with:\n  ${installLine(still.map((m) => m.pkg))}`);
  process.exit(1);
}
