import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { layoutAt, manifestDiff, programManifest, type ProgramManifest, type ProgramMode } from '../../host/service/program-hash.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'service program-hash',
  summary:
    'The reference program hash of a build: the same files and the same figure the host computes at\nstart (journalled in power.reset) and on demand (service Status page).',
  usage: 'usage: etg service program-hash [--json] [--mode tsx|electron|packaged] [--root DIR] [--manifest] [--compare FILE]',
  options: {
    json: { type: 'boolean', help: 'print JSON' },
    mode: {
      type: 'string',
      value: 'tsx|electron|packaged',
      help: 'how the build runs: tsx (npm start), electron (dist/electron) or packaged\n(an installed .deb or unpacked AppImage: --root is its folder)',
      default: 'tsx',
    },
    root: { type: 'string', value: 'DIR', help: "the build's folder (default: this repository)" },
    manifest: { type: 'boolean', help: 'with --json: every file and its SHA-256 as well (what a mismatch is traced with)' },
    compare: {
      type: 'string',
      value: 'FILE',
      help: "a manifest (a kiosk's <data-dir>/program-manifest.json, or an approved one saved\nwith --json --manifest): lists the files that differ; exit 1 if any",
    },
  },
});

const PROGRAM_MODES: readonly ProgramMode[] = ['tsx', 'electron', 'packaged'];

/** The approved build's reference hash, and the files behind a mismatch. */
export async function run(argv: string[]): Promise<number> {
  const o = options(command, argv);
  const mode = PROGRAM_MODES.find((m) => m === (o.mode ?? 'tsx'));
  if (!mode) throw new UsageError(`--mode is tsx, electron or packaged\n${command.usage}`);
  const root = path.resolve(o.root ?? path.join(import.meta.dirname, '../..'));
  if (mode === 'packaged' && !existsSync(path.join(root, 'resources', 'app.asar')))
    throw new UsageError(`${root} is no installed kiosk (no resources/app.asar)`);
  if (mode !== 'packaged' && !existsSync(path.join(root, 'package.json'))) throw new UsageError(`${root} holds no build (no package.json)`);
  if (mode === 'electron' && !existsSync(path.join(root, 'dist/electron'))) throw new UsageError(`${root} has no dist/electron: build it first`);
  const m = await programManifest(layoutAt(root, mode));
  if (o.compare) {
    const reference = JSON.parse(readFileSync(o.compare, 'utf8')) as ProgramManifest;
    if (!Array.isArray(reference.files)) throw new UsageError(`${o.compare} is not a program manifest (no files)`);
    const diff = manifestDiff(reference, m);
    const same = reference.hash === m.hash;
    if (o.json) console.log(JSON.stringify({ mode, hash: m.hash, reference: reference.hash, same, ...diff }));
    else {
      console.log(`${same ? 'same' : 'DIFFERENT'}: ${m.hash} (reference ${reference.hash})`);
      for (const f of diff.changed) console.log(`changed\t${f}`);
      for (const f of diff.added) console.log(`added\t${f}`);
      for (const f of diff.removed) console.log(`removed\t${f}`);
    }
    return same ? 0 : 1;
  }
  // With --manifest the output has the shape of a kiosk's program-manifest.json, so either compares.
  if (o.json) console.log(JSON.stringify({ mode, root, hash: m.hash, count: m.files.length, ...(o.manifest ? { files: m.files } : {}) }));
  else console.log(`${m.hash}  ${mode}, ${m.files.length} files`);
  return 0;
}
