// `etg package [--dry-run] [--json]` (`npm run package`, `npm run package:dry-run`): the screens
// built, then deploy/build.ts (the bundles, the app folder, the cabinet's tools, the upstream's
// folder; with --dry-run, app.asar and its program hash), then, without --dry-run, electron-builder
// (downloads Electron, sets the fuses, makes the .deb and the AppImage). docs/deploy.md.
// Each step is a child process, as `etg start` builds Electron's bundles: deploy/ is build-time code.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineCommand, options } from './command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const command = defineCommand({
  name: 'package',
  summary:
    'Packages the kiosk for Linux x64: esbuild bundles, the app folder, the tools and the upstream,\n' +
    'then electron-builder (.deb and AppImage, fuses set). --dry-run stops before electron-builder\n' +
    'and packs app.asar itself (no download). docs/deploy.md.',
  usage: 'usage: etg package [--dry-run] [--json]',
  options: {
    'dry-run': { type: 'boolean', help: 'every step that needs no download: app.asar in dist/dry-run and its program hash' },
    json: { type: 'boolean', help: 'one JSON line: bundles, app, tools, upstream, asar {file, entries, programHash}' },
  },
});

function step(program: string, args: string[], json: boolean): void {
  // With --json the steps' own output goes to stderr, so stdout holds the one JSON line.
  const r = spawnSync(program, args, { cwd: root, stdio: ['ignore', json ? 2 : 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${[path.basename(program), ...args].join(' ')} failed (exit ${r.status ?? r.signal})`);
}

export function run(argv: string[]): number {
  const v = options(command, argv);
  const json = v.json === true;
  step('npm', ['run', '--silent', 'build:renderer'], json);
  // Its JSON line is the command's output: stdout passes through.
  const build = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'deploy/build.ts'), ...(v['dry-run'] ? ['--dry-run'] : []), ...(json ? ['--json'] : [])],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error(`deploy/build.ts failed (exit ${build.status ?? build.signal})`);
  if (v['dry-run']) return 0;
  step(
    path.join(root, 'node_modules', '.bin', 'electron-builder'),
    ['--config', 'deploy/electron-builder.json', '--linux', '--x64', '--publish', 'never'],
    json,
  );
  return 0;
}
