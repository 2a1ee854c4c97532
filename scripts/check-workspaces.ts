// `npm run lint`'s workspace check (docs/architecture.md, "Workspaces"): every workspace's
// package.json names what its files import, and only that (scripts/workspaces/dependencies.ts);
// and no workspace's production install holds what its machine must not (scripts/workspaces/forbidden.ts).
import path from 'node:path';
import { readSources } from './cycles/import-cycles.js';
import { checkWorkspaces } from './workspaces/dependencies.js';
import { FORBIDS, forbiddenInstalls } from './workspaces/forbidden.js';
import { installedManifest, readPackages, typesFor } from './workspaces/read.js';

const root = path.resolve(import.meta.dirname, '..');
const { manifest, workspaces, exists } = readPackages(root);
const sources = new Map([...readSources(root)].map(([file, text]) => [path.relative(root, file).split(path.sep).join('/'), text]));
const found = [
  ...checkWorkspaces({ root: manifest, workspaces, sources, exists, typesFor: (name) => typesFor(root, name) }),
  ...forbiddenInstalls({ workspaces, installed: (name) => installedManifest(root, name), forbids: FORBIDS }),
];
for (const line of found) console.error(line);
if (found.length > 0) {
  console.error(
    `${found.length} workspace dependency problem(s): declare what a workspace imports in its own package.json, and nothing else; install nothing its machine forbids.`,
  );
  process.exitCode = 1;
}
