// What a machine must never install (issue 53 item 6): the workspaces declare what they import
// (dependencies.ts), and npm installs the closure of those declarations. A pure file imported from
// the wrong workspace drags that workspace's packages along: the upstream once installed
// better-sqlite3 because it imported the transfers' terms from the ledger. This check walks each
// workspace's production install as npm makes it (workspaces followed by every field, since npm
// follows a workspace's edge to another, devDependencies included, into a production install;
// packages by their own dependencies, as installed) and names the path to anything forbidden.
import type { Manifest, Package } from './dependencies.js';

/** What a package.json says it needs installed beside it (a published package's, read from node_modules). */
export interface InstalledManifest {
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** Per workspace folder: the packages its production install must not hold, each with why. */
export type Forbids = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** docs/architecture.md, "Workspaces": what each machine must not install. */
export const FORBIDS: Forbids = {
  upstream: {
    'better-sqlite3':
      'the upstream keeps its data in PostgreSQL or PGlite: SQLite is the cabinet ledger’s, a native module the upstream machine would build for nothing',
    usb: 'the upstream drives no device',
    serialport: 'the upstream drives no device',
    'pixi.js': 'the upstream draws no screen (the back office is plain DOM)',
    electron: 'the upstream runs under Node, not Electron',
  },
  host: {
    'pixi.js': 'the host draws nothing: the screens are the renderer’s',
    electron: 'the host runs under Node (Electron starts it, it does not import Electron)',
  },
  engine: {
    'better-sqlite3': 'the engine is pure',
    usb: 'the engine is pure',
    'pixi.js': 'the engine is pure',
  },
};

export interface ForbidInput {
  readonly workspaces: readonly Package[];
  /** A published package's package.json as installed, or undefined when it is not installed. */
  readonly installed: (name: string) => InstalledManifest | undefined;
  readonly forbids: Forbids;
}

function needs(m: InstalledManifest): string[] {
  const optionalPeer = (name: string) => m.peerDependenciesMeta?.[name]?.optional === true;
  return [
    ...Object.keys(m.dependencies ?? {}),
    ...Object.keys(m.optionalDependencies ?? {}),
    ...Object.keys(m.peerDependencies ?? {}).filter((n) => !optionalPeer(n)),
  ];
}

/** Every forbidden package a workspace's production install would hold, with the path that brings it. */
export function forbiddenInstalls(input: ForbidInput): string[] {
  const byName = new Map<string, Manifest>(input.workspaces.map((w) => [w.manifest.name, w.manifest]));
  const problems: string[] = [];
  for (const [dir, forbidden] of Object.entries(input.forbids)) {
    const start = input.workspaces.find((w) => w.dir === dir);
    if (!start) {
      problems.push(`${dir}: a workspace the forbidden list names does not exist`);
      continue;
    }
    // Breadth first: the shortest path to each package is the one named.
    const via = new Map<string, string[]>([[start.manifest.name, [start.manifest.name]]]);
    const queue = [start.manifest.name];
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const workspace = byName.get(name);
      const own = workspace
        ? [...needs(workspace), ...Object.keys(workspace.devDependencies ?? {}).filter((n) => byName.has(n))]
        : needs(input.installed(name) ?? {});
      for (const next of own) {
        if (via.has(next)) continue;
        via.set(next, [...via.get(name)!, next]);
        queue.push(next);
      }
    }
    for (const [pkg, why] of Object.entries(forbidden)) {
      const path = via.get(pkg);
      if (path) problems.push(`${dir}: its production install holds ${pkg} (${path.join(' → ')}), which it must not: ${why}`);
    }
  }
  return problems;
}
