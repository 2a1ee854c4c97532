// What the build machines can check of the way to a cabinet (docs/deploy.md lists what they cannot):
// the builder configuration against its schema, the systemd units, the udev rules, and every
// packaging step that needs no download.
import { Ajv } from 'ajv';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, symlinkSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { command as edgeCommand } from '../cli/edge.js';
import { command as stationAgentCommand } from '../cli/station-agent.js';
import { KNOWN_BRIDGES } from '../hardware/transport/usb-serial.js';
import { programLayout, programManifest, runtimePackages } from '../host/service/program-hash.js';
import { bundleAll, extractFile, listPackage, NATIVE, packAsar, root, stageApp, stageBackoffice, stageEtg, upstreamDependencies } from './build.js';
import { parseUdevRules } from './udev-rules.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'deploy-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const read = (p: string) => readFileSync(path.join(root, p), 'utf8');

describe('electron-builder configuration', () => {
  const config = JSON.parse(read('deploy/electron-builder.json')) as Record<string, unknown> & {
    electronFuses: Record<string, boolean>;
    linux: { target: { target: string; arch: string[] }[] };
    extraResources: { from: string }[];
    deb: { afterInstall: string; afterRemove: string };
    directories: { app: string };
  };
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(read('node_modules/app-builder-lib/scheme.json')) as object);

  it("fits app-builder-lib's own schema, and the schema catches a mistyped key", () => {
    assert.equal(validate(config), true, JSON.stringify(validate.errors, null, 1));
    assert.equal(validate({ ...config, asarUnpak: ['**/*.node'] }), false);
    assert.equal(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }), false);
  });

  it('packs an ASAR and makes a .deb and an AppImage for Linux x64', () => {
    assert.equal(config.asar, true);
    assert.deepEqual(
      config.linux.target.map((t) => [t.target, t.arch]),
      [
        ['deb', ['x64']],
        ['AppImage', ['x64']],
      ],
    );
    assert.equal(config.directories.app, 'dist/app');
    // Node-API addons load in Electron as built (the native-module test below checks they are Node-API);
    // a rebuild from source would need Rust for usb and compile what the tests never ran.
    assert.equal(config.npmRebuild, false);
    assert.equal(config.buildDependenciesFromSource, false);
  });

  it('sets the fuses: no RunAsNode, NODE_OPTIONS or --inspect; ASAR integrity; the app only from the ASAR', () => {
    assert.deepEqual(
      {
        runAsNode: config.electronFuses.runAsNode,
        enableNodeOptionsEnvironmentVariable: config.electronFuses.enableNodeOptionsEnvironmentVariable,
        enableNodeCliInspectArguments: config.electronFuses.enableNodeCliInspectArguments,
        enableEmbeddedAsarIntegrityValidation: config.electronFuses.enableEmbeddedAsarIntegrityValidation,
        onlyLoadAppFromAsar: config.electronFuses.onlyLoadAppFromAsar,
      },
      {
        runAsNode: false,
        enableNodeOptionsEnvironmentVariable: false,
        enableNodeCliInspectArguments: false,
        enableEmbeddedAsarIntegrityValidation: true,
        onlyLoadAppFromAsar: true,
      },
    );
  });

  it('names only files that exist (but the tools, which the build makes)', () => {
    for (const r of config.extraResources) if (r.from !== 'dist/tools') assert.ok(existsSync(path.join(root, r.from)), r.from);
    for (const s of [config.deb.afterInstall, config.deb.afterRemove]) assert.ok(existsSync(path.join(root, s)), s);
  });
});

describe('systemd units (systemd-analyze verify)', () => {
  const units = readdirSync(path.join(root, 'deploy/systemd')).filter((f) => /\.(service|timer|socket)$/.test(f));
  const stub = path.join(tmp, 'stub-bin');

  /** The units with their programs (not installed here) replaced by a stub, verified together. */
  function verify(files: Record<string, string>): { status: number | null; problems: string[] } {
    const dir = mkdtempSync(path.join(tmp, 'units-'));
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(
        path.join(dir, name),
        text.replace(/^(Exec\w+=)(\S+)/gm, (_m, key: string) => `${key}${stub}`),
      );
    }
    const r = spawnSync('systemd-analyze', ['verify', ...Object.keys(files).map((f) => path.join(dir, f))], { encoding: 'utf8' });
    if (r.error) throw new Error(`systemd-analyze is missing (Debian package systemd; scripts/check-system.ts): ${r.error.message}`);
    const problems = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.includes(dir));
    return { status: r.status, problems };
  }

  before(() => {
    writeFileSync(stub, '#!/bin/sh\n');
    chmodSync(stub, 0o755);
  });

  it('finds the kiosk session, the ledger witness and its socket, the upstream, its backup service and timer, the station agent and the edge', () => {
    assert.deepEqual(units.sort(), [
      'etg-edge.service',
      'etg-station-agent.service',
      'etg-upstream-backup.service',
      'etg-upstream-backup.timer',
      'etg-upstream.service',
      'etg-witness.service',
      'etg-witness.socket',
      'macau-etg-kiosk.service',
    ]);
  });

  it('verifies every unit without a warning', () => {
    const r = verify(Object.fromEntries(units.map((u) => [u, read(`deploy/systemd/${u}`)])));
    assert.deepEqual(r.problems, []);
    assert.equal(r.status, 0);
  });

  it('verifies the witness with its TPM drop-in in place', () => {
    const r = verify({
      'etg-witness.service': `${read('deploy/systemd/etg-witness.service')}\n${read('deploy/systemd/etg-witness.service.d/tpm.conf')}`,
      'etg-witness.socket': read('deploy/systemd/etg-witness.socket'),
    });
    assert.deepEqual(r.problems, []);
    assert.equal(r.status, 0);
  });

  it("the witness runs as its own user, its key handed by systemd (or sealed in the TPM), its socket the kiosk's group's only", () => {
    const unit = read('deploy/systemd/etg-witness.service');
    const socket = read('deploy/systemd/etg-witness.socket');
    const tpm = read('deploy/systemd/etg-witness.service.d/tpm.conf');
    const kiosk = read('deploy/systemd/macau-etg-kiosk.service');
    assert.match(unit, /^User=etg-witness$/m);
    assert.match(kiosk, /^User=etg-kiosk$/m);
    assert.match(unit, /^LoadCredential=witness\.key:\/etc\/etg-witness\/witness\.key$/m);
    assert.match(unit, /^StateDirectoryMode=0700$/m);
    assert.match(unit, /^ExecStart=\S+ witness serve --dir \/var\/lib\/etg-witness /m);
    assert.match(socket, /^ListenStream=\/run\/etg-witness\/witness\.sock$/m);
    assert.match(socket, /^SocketGroup=etg-kiosk$/m);
    assert.match(socket, /^SocketMode=0660$/m);
    assert.match(kiosk, /^Wants=.*\betg-witness\.socket\b/m);
    assert.match(kiosk, /^After=.*\betg-witness\.socket\b/m);
    // The TPM drop-in drops the key file and seals under PCR 7.
    assert.match(tpm, /^LoadCredential=$/m);
    assert.match(tpm, /--tpm --tpm-tcti device:\/dev\/tpmrm0 --tpm-pcrs sha256:7/);
    const postinst = read('deploy/debian/postinst.sh');
    assert.match(postinst, /useradd --system .* etg-witness/);
    assert.match(postinst, /witness keygen --out \/etc\/etg-witness\/witness\.key/);
    assert.match(postinst, /--witness=\/run\/etg-witness\/witness\.sock/);
  });

  it('the station agent is started again after any exit, relays only, and gets its enrolment from systemd alone', () => {
    const unit = read('deploy/systemd/etg-station-agent.service');
    // A kill at any moment is survived by the table's journal (tests/host/stadium-soak.test.ts);
    // the supervisor's part is to bring the agent back whatever ended it, a clean exit included.
    assert.match(unit, /^Restart=always$/m);
    assert.match(unit, /^RestartSec=\d+$/m);
    assert.match(unit, /^User=etg-station$/m);
    assert.match(unit, /^SupplementaryGroups=.*\betg-devices\b/m);
    assert.match(unit, /^LoadCredential=enrolment\.json:\/etc\/etg-station-agent\/enrolment\.json$/m);
    // A production build's agent only relays bytes (issue 50): the unit says so, and reads the
    // enrolment from the credentials directory (%d), not from a file its user could read.
    assert.match(unit, /^ExecStart=\S+ station-agent --enrolment %d\/enrolment\.json --relay /m);
    assert.match(unit, /^ProtectSystem=strict$/m);
    assert.match(unit, /^NoNewPrivileges=yes$/m);
    // Every option the unit passes is one the command takes (cli/station-agent.ts).
    const args = /^ExecStart=\S+ station-agent (.*)\$ETG_STATION_AGENT_DEVICE \$ETG_STATION_AGENT_ARGS$/m.exec(unit)?.[1] ?? '';
    const flags = [...args.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
    assert.deepEqual(flags, ['enrolment', 'relay', 'json']);
    for (const f of flags) assert.ok(f in stationAgentCommand.options, `--${f}`);
    // A station whose screen goes to an edge names its direct enrolment for the acceptor's link (docs/deploy.md's drop-in).
    assert.ok('device-enrolment' in stationAgentCommand.options);
  });

  it('the edge is started again after any exit, as its own user, its NATS password from systemd alone', () => {
    const unit = read('deploy/systemd/etg-edge.service');
    // An edge killed mid-coup loses nothing (tests/host/stadium-edges-faults.test.ts): its stations
    // reconnect to another; the supervisor's part is to bring it back whatever ended it.
    assert.match(unit, /^Restart=always$/m);
    assert.match(unit, /^RestartSec=\d+$/m);
    assert.match(unit, /^User=etg-edge$/m);
    assert.match(unit, /^LoadCredential=nats-password:\/etc\/etg-edge\/nats-password$/m);
    assert.match(unit, /^StateDirectory=etg-edge$/m);
    assert.match(unit, /^ProtectSystem=strict$/m);
    assert.match(unit, /^NoNewPrivileges=yes$/m);
    // An edge holds no device: none reach it.
    assert.match(unit, /^PrivateDevices=yes$/m);
    // Every option the unit passes is one the command takes (cli/edge.ts).
    const args = /^ExecStart=\S+ edge (.*)$/m.exec(unit)?.[1] ?? '';
    const flags = [...args.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
    assert.deepEqual(flags, ['config', 'json']);
    for (const f of flags) assert.ok(f in edgeCommand.options, `--${f}`);
  });

  it('would report a mistake (the check is not blind)', () => {
    const r = verify({ 'broken.service': read('deploy/systemd/macau-etg-kiosk.service').replace('Restart=on-failure', 'Restart=on-failure\nRestartt=always') });
    assert.ok(r.problems.some((l) => /Restartt/.test(l)));
  });

  it('the kiosk session restarts on failure, has a watchdog, and the session keeps the display awake and maps touchscreens', () => {
    const unit = read('deploy/systemd/macau-etg-kiosk.service');
    assert.match(unit, /^Restart=on-failure$/m);
    assert.match(unit, /^WatchdogSec=\d+$/m);
    assert.match(unit, /^NotifyAccess=all$/m);
    const session = read('deploy/x11/kiosk-session');
    assert.match(session, /xset s off -dpms s noblank/);
    assert.match(session, /xinput map-to-output/);
    assert.match(session, /kiosk-watchdog" "\$PORT" &/);
    assert.match(read('deploy/x11/kiosk-watchdog'), /systemd-notify WATCHDOG=1/);
    for (const s of ['deploy/x11/kiosk-session', 'deploy/x11/kiosk-watchdog'])
      assert.equal(spawnSync('sh', ['-n', path.join(root, s)]).status, 0, `${s} parses`);
    for (const s of ['deploy/upstream/backup.sh', 'deploy/upstream/restore.sh', 'deploy/debian/postinst.sh', 'deploy/debian/postrm.sh'])
      assert.equal(spawnSync('sh', ['-n', path.join(root, s)]).status, 0, s);
  });
});

describe('udev rules', () => {
  const text = read('deploy/udev/60-macau-etg-kiosk.rules');

  it('parses: every line is KEY==/!= matches and KEY=/+=/:= assignments, quoted', () => {
    const rules = parseUdevRules(text);
    assert.ok(rules.length >= KNOWN_BRIDGES.length);
    assert.throws(() => parseUdevRules('SUBSYSTEM=="usb", ATTRS{idVendor}="0403"\n'), /match key ATTRS\{idVendor\} with an assignment/);
    assert.throws(() => parseUdevRules('SUBSYSTEM=="usb", MODE=="0660"\n'), /MODE cannot be matched/);
    assert.throws(() => parseUdevRules('SUBSYSTEM=="usb", MODE="rw"\n'), /not octal/);
    assert.throws(() => parseUdevRules('SUBSYSTEM=="usb" MODE="0660"\n'), /not separated/);
    assert.throws(() => parseUdevRules('SUBSYSTM=="usb", MODE="0660"\n'), /unknown key/);
    assert.throws(() => parseUdevRules('SUBSYSTEM=="usb, MODE="0660"\n'));
  });

  it('gives the kiosk every USB id the project knows (hardware/transport/usb-serial.ts)', () => {
    const rules = parseUdevRules(text);
    const hex = (n: number) => n.toString(16).padStart(4, '0');
    for (const b of KNOWN_BRIDGES) {
      const rule = rules.find((r) => r.match['ATTR{idVendor}'] === hex(b.vid) && r.match['ATTR{idProduct}'] === hex(b.pid));
      assert.ok(rule, `${b.name} ${hex(b.vid)}:${hex(b.pid)}`);
      assert.equal(rule.assign.GROUP, 'etg-devices');
      assert.equal(rule.assign.MODE, '0660');
    }
  });

  it('passes udevadm verify where this udev has it (systemd 254 and later)', (t) => {
    const help = spawnSync('udevadm', ['verify', '--help'], { encoding: 'utf8' });
    if (help.status !== 0) {
      t.diagnostic('udevadm verify is not available here (systemd < 254 or no udev): the parser above is the check');
      return;
    }
    const r = spawnSync('udevadm', ['verify', path.join(root, 'deploy/udev/60-macau-etg-kiosk.rules')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });
});

describe('packaging dry run (every step that needs no download)', () => {
  const bundles = path.join(tmp, 'bundles');
  const appDir = path.join(tmp, 'app');
  const install = path.join(tmp, 'opt', 'macau-etg-kiosk');
  let asar = '';

  const tools = path.join(tmp, 'tools');
  const upstream = path.join(tmp, 'upstream');

  before(async () => {
    await bundleAll(bundles);
    const renderer = path.join(tmp, 'renderer');
    mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>kiosk</title>');
    writeFileSync(path.join(renderer, 'assets', 'index.js'), 'void 0;');
    const natives = runtimePackages(root, NATIVE);
    stageApp(bundles, renderer, appDir, natives);
    // The cabinet's copy also gets the pinned Node binary (withNode); here bin/etg finds this Node on PATH.
    stageEtg(path.join(bundles, 'bin'), tools, natives);
    stageEtg(path.join(bundles, 'upstream'), upstream, [], { dependencies: upstreamDependencies() });
    // The back office as `npm run build:backoffice` leaves it: a page, its script and its source map.
    const page = path.join(tmp, 'backoffice');
    mkdirSync(path.join(page, 'assets'), { recursive: true });
    writeFileSync(path.join(page, 'index.html'), '<!doctype html><title>back office</title><script type="module" src="/backoffice/assets/index.js"></script>');
    writeFileSync(path.join(page, 'assets', 'index.js'), 'void 0;');
    writeFileSync(path.join(page, 'assets', 'index.js.map'), '{}');
    stageBackoffice(page, upstream);
    // What `npm install --omit=dev` puts there on the server (deploy/upstream/Containerfile).
    mkdirSync(path.join(upstream, 'node_modules', '@electric-sql'), { recursive: true });
    symlinkSync(path.join(root, 'node_modules', '@electric-sql', 'pglite'), path.join(upstream, 'node_modules', '@electric-sql', 'pglite'));
    asar = await packAsar(appDir, path.join(install, 'resources'));
    writeFileSync(path.join(install, 'macau-etg-kiosk'), 'the Electron executable, fuses flipped');
  });

  /** bin/etg of a staged folder, run as a cabinet or a server would: no tsx, no repository. */
  function etg(dir: string, args: string[]) {
    return spawnSync(path.join(dir, 'bin', 'etg'), args, {
      encoding: 'utf8',
      cwd: tmp,
      env: { ...process.env, NODE_OPTIONS: '', PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
    });
  }

  it('bundles the host and etg with esbuild: no tsx, vite or test file inside', () => {
    const host = readFileSync(path.join(bundles, 'electron', 'host.mjs'), 'utf8');
    const cli = readFileSync(path.join(bundles, 'bin', 'etg.mjs'), 'utf8');
    const up = readFileSync(path.join(bundles, 'upstream', 'etg.mjs'), 'utf8');
    for (const b of [host, cli, up]) assert.doesNotMatch(b, /from ["'](tsx|vite)["']|require\(["'](tsx|vite)["']\)|node:test/);
  });

  /** The sources esbuild put in a staged etg (its `// path` comments, one per bundled module), and the packages left outside it. */
  function bundled(dir: string): { sources: Set<string>; external: Set<string>; termsFiles: Set<string> } {
    const sources = new Set<string>();
    const external = new Set<string>();
    const termsFiles = new Set<string>();
    for (const f of readdirSync(path.join(dir, 'bin'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'))) {
      const text = readFileSync(path.join(dir, 'bin', f), 'utf8');
      for (const m of text.matchAll(/^\/\/ ((?:node_modules\/(?:@[^/\n]+\/)?[^/\n]+)|[a-z-]+)\//gm)) sources.add(m[1]!);
      for (const m of text.matchAll(/^\/\/ (terms\/[^\s]+\.ts)$/gm)) termsFiles.add(m[1]!);
      // esbuild writes an external package as a top-level `import … from "x"` or an `import("x")`.
      for (const m of text.matchAll(/^import [^;]*from "([^".][^"]*)"|\bimport\("([^".][^"]*)"\)/gm)) {
        const name = m[1] ?? m[2]!;
        if (!name.startsWith('node:')) external.add(name);
      }
    }
    return { sources, external, termsFiles };
  }

  it("bundles each machine's etg with its own commands only: the cabinet's without the upstream's packages, the upstream's without the cabinet's", () => {
    const cabinet = bundled(tools);
    for (const ours of ['cli', 'ledger', 'host', 'hardware', 'witness']) assert.ok(cabinet.sources.has(ours), `the cabinet's etg holds ${ours}/`);
    for (const theirs of [
      'upstream',
      'node_modules/pg',
      'node_modules/@fastify/swagger',
      'node_modules/@fastify/rate-limit',
      'node_modules/fastify-type-provider-zod',
    ])
      assert.ok(!cabinet.sources.has(theirs), `the cabinet's etg holds ${theirs}`);
    assert.deepEqual([...cabinet.external].sort(), [...NATIVE].sort());
    const up = bundled(upstream);
    for (const ours of ['cli', 'upstream', 'node_modules/pg', 'node_modules/fastify']) assert.ok(up.sources.has(ours), `the upstream's etg holds ${ours}`);
    for (const theirs of [
      'host',
      'hardware',
      'ledger',
      'engine',
      'renderer',
      'electron',
      'node_modules/usb',
      'node_modules/serialport',
      'node_modules/better-sqlite3',
    ])
      assert.ok(!up.sources.has(theirs), `the upstream's etg holds ${theirs}`);
    // Nothing of the ledger (issue 53): the shared terms are in terms/, the transfers' terms and
    // their reconciliation (pure, zod only), the one pairing of transfer ids the hosts' tests and
    // the upstream run (issue 34); and the tickets' terms and validation numbers, the hosts' and
    // the authority's (issue 47).
    assert.deepEqual([...up.termsFiles].sort(), [
      // What a configuration order may change and how large its value may be, the upstream's bound
      // on a proposal and the table's on an order (a review of the configuration orders).
      'terms/config-order-terms.ts',
      // The entries that always name the table's currency, which the upstream checks a table's journal by and the kiosk reads a run's currency by.
      'terms/currency-naming.ts',
      // The house edges the gaming day's theoretical win reads (issue 49): data, written from the engine.
      'terms/house-edges.ts',
      // The table meters both /metrics count, by the same names (the host's and the upstream's).
      'terms/meter-metrics.ts',
      // A round's record and evidence bundle from its journal entries, the kiosk's and the back
      // office's one implementation (issue 49), with the payload schemas of a round they read.
      'terms/payload-fields.ts',
      'terms/round-evidence.ts',
      'terms/round-record.ts',
      'terms/round-terms.ts',
      // What a refusal says to a person (a catalogue key and its values), which the back office
      // reads from a refused configuration order to show it in the reader's language (issue 49).
      'terms/said.ts',
      // The station numbers a table may have, which ingest holds an entry's credits to (a review of the upstream).
      'terms/stations.ts',
      'terms/ticket-terms.ts',
      'terms/transfer-reconcile.ts',
      'terms/transfer-terms.ts',
      'terms/validation-number.ts',
    ]);
    // PGlite and its Node file system, one package (upstream/pglite-flushed.ts flushes through the latter).
    assert.deepEqual([...up.external].sort(), ['@electric-sql/pglite', '@electric-sql/pglite/nodefs']);
    // And each refuses the other's tool as unknown.
    const refused = etg(tools, ['upstream', 'serve', '--help']);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /unknown tool "upstream"/);
    const list = etg(upstream, ['--help']);
    assert.equal(list.status, 0, list.stderr);
    assert.deepEqual(
      [...list.stdout.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]),
      ['upstream'],
    );
  });

  it("runs the cabinet's etg from its own folder: the tools listed, a ledger made and verified with the packed better-sqlite3", () => {
    const help = etg(tools, ['--help']);
    assert.equal(help.status, 0, help.stderr);
    for (const t of ['ledger', 'service', 'devices', 'package']) assert.match(help.stdout, new RegExp(`^  ${t} `, 'm'));
    const data = path.join(tmp, 'cabinet-data');
    const demo = etg(tools, ['ledger', 'demo', '--data-dir', data, '--terminal-id', 'T-01', '--json']);
    assert.equal(demo.status, 0, demo.stderr);
    const verify = etg(tools, ['ledger', 'verify', '--data-dir', data, '--json']);
    assert.equal(verify.status, 0, verify.stderr);
    assert.equal((JSON.parse(verify.stdout) as { ok: boolean }).ok, true, verify.stdout);
    const pkg = JSON.parse(readFileSync(path.join(tools, 'package.json'), 'utf8')) as { engines: { node: string } };
    assert.equal(pkg.engines.node, (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node);
  });

  it("runs the upstream's etg: the serve command's help, with PGlite as its one npm dependency", () => {
    const help = etg(upstream, ['upstream', 'serve', '--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--metrics-token-file/);
    // The back office's page (issue 49): in the upstream's folder, and where its serve looks by default.
    const page = path.join(upstream, 'dist', 'backoffice');
    assert.ok(help.stdout.includes(page), `serve's default --backoffice-dir is ${page}:\n${help.stdout}`);
    assert.ok(existsSync(path.join(page, 'index.html')) && existsSync(path.join(page, 'assets', 'index.js')));
    assert.ok(!existsSync(path.join(page, 'assets', 'index.js.map')), 'no source map shipped');
    assert.throws(() => stageBackoffice(path.join(tmp, 'not-built'), upstream), /npm run build:backoffice/);
    const pkg = JSON.parse(readFileSync(path.join(upstream, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    assert.deepEqual(Object.keys(pkg.dependencies), ['@electric-sql/pglite']);
  });

  it('packs native modules that are Node-API (they load in Electron without a rebuild)', () => {
    const binaries = execFileSync('find', [path.join(appDir, 'node_modules'), '-name', '*.node', '-path', '*linux-x64*'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    for (const native of ['better-sqlite3', 'usb', 'bindings-cpp'])
      assert.ok(
        binaries.some((b) => b.includes(native)),
        `${native}: ${binaries.join('\n')}`,
      );
    for (const b of binaries) assert.ok(readFileSync(b).includes('napi_register_module_v1'), `${b} is not a Node-API addon`);
  });

  it('stages the app with a package.json naming the entry and the native modules only', () => {
    const pkg = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };
    assert.equal(pkg.main, 'dist/electron/main.cjs');
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), [...NATIVE].sort());
  });

  it('packs app.asar: bundles, screens, package.json and the native packages; .node files unpacked; no sources, maps, tsx or vite', () => {
    const files = listPackage(asar, { isPack: false }).map((f) => f.split(path.sep).join('/'));
    for (const f of ['/package.json', '/dist/electron/main.cjs', '/dist/electron/preload.cjs', '/dist/electron/host.mjs', '/dist/renderer/index.html'])
      assert.ok(files.includes(f), f);
    assert.ok(files.some((f) => f.startsWith('/node_modules/better-sqlite3/')));
    assert.ok(files.some((f) => f.startsWith('/node_modules/usb/')));
    assert.deepEqual(
      files.filter((f) => /\.(ts|map)$/.test(f) && !f.endsWith('.d.ts')),
      [],
    );
    assert.deepEqual(
      files.filter((f) => /\/node_modules\/(tsx|vite|esbuild|typescript)\//.test(f)),
      [],
    );
    const main = (JSON.parse(extractFile(asar, 'package.json').toString()) as { main: string }).main;
    assert.equal(main, 'dist/electron/main.cjs');
    const unpacked = path.join(install, 'resources', 'app.asar.unpacked');
    const nodes = execFileSync('find', [unpacked, '-name', '*.node'], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(nodes.some((n) => n.endsWith('better-sqlite3/prebuilds/linux-x64.node')) && nodes.every((n) => n.includes('linux-x64')), nodes.join('\n'));
  });

  it('takes the program hash of service mode over the packaged files: the executable, app.asar whole, what is unpacked', async () => {
    const layout = programLayout(path.join(install, 'resources', 'app.asar', 'dist', 'electron'));
    assert.equal(layout.mode, 'packaged');
    assert.equal(layout.root, install);
    const m = await programManifest(layout);
    const names = m.files.map(([f]) => f);
    assert.ok(names.includes('macau-etg-kiosk'), names.slice(0, 5).join());
    assert.ok(names.includes('resources/app.asar'), names.slice(0, 5).join());
    assert.ok(
      names.some((f) => f.startsWith('resources/app.asar.unpacked/') && f.endsWith('.node')),
      names.slice(0, 5).join(),
    );
    // One byte of the archive changed: another hash, and the archive is the file named.
    const copy = path.join(tmp, 'opt2');
    cpSync(install, copy, { recursive: true });
    const bytes = readFileSync(path.join(copy, 'resources', 'app.asar'));
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 1;
    writeFileSync(path.join(copy, 'resources', 'app.asar'), bytes);
    const other = await programManifest(programLayout(path.join(copy, 'resources', 'app.asar', 'dist', 'electron')));
    assert.notEqual(other.hash, m.hash);
    const changed = other.files.filter(([f, h]) => m.files.find(([g]) => g === f)?.[1] !== h).map(([f]) => f);
    assert.deepEqual(changed, ['resources/app.asar']);
  });
});

describe('Prometheus alert rules (deploy/prometheus/etg-alerts.yml)', () => {
  it('name only metrics the host or the upstream exposes (a renamed metric fails here, not silently on the floor)', () => {
    const rules = read('deploy/prometheus/etg-alerts.yml');
    // Every file of host/metrics/ (its gauges are split by what they read), the upstream's, and the meters' names both count (terms/meter-metrics.ts).
    const hostFiles = readdirSync(path.join(root, 'host/metrics')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const exposed = [...hostFiles.map((f) => read(`host/metrics/${f}`)), read('upstream/metrics.ts'), read('terms/meter-metrics.ts')].join('\n');
    const used = [...new Set([...rules.matchAll(/\betg_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, '')))];
    assert.ok(used.length >= 10, used.join());
    assert.deepEqual(
      used.filter((name) => !exposed.includes(`'${name}'`)),
      [],
    );
    assert.equal([...rules.matchAll(/^\s+- alert: Etg\w+$/gm)].length, 13);
  });
});
