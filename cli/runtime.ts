// The Node `etg` runs on must be the line package.json's engines names: the packages were installed
// for it (better-sqlite3's binary needs Node-API 10, which Node 20 does not have), so another Node
// fails later and obscurely, on the first ledger it opens.
// `npx etg` and the `npm run` aliases put the project's pinned Node (node_modules/.bin/node) first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { z } from 'zod';

/** What the tools read of package.json. */
const PackageJson = z.object({ version: z.string(), engines: z.object({ node: z.string().refine((r) => semver.validRange(r) !== null, 'a semver range') }) });

function packageJson(root: string): z.infer<typeof PackageJson> {
  const file = path.join(root, 'package.json');
  const parsed = PackageJson.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The `engines.node` range of the package.json at `root`. */
export function enginesNode(root: string): string {
  return packageJson(root).engines.node;
}

export function packageVersion(root: string): string {
  return packageJson(root).version;
}

/** Why this Node cannot run the tools (with the way out), or null when it can. */
export function runtimeProblem(version: string, range: string): string | null {
  if (semver.satisfies(version, range)) return null;
  return (
    `Node ${version} cannot run it: package.json engines wants Node ${range}. ` +
    'Run it as `npm run <tool> -- …` or `npx etg …` from the clone, which put its own Node first on PATH.'
  );
}
