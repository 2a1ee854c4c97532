// Commands whose packages a production install leaves out (docs/architecture.md, "Workspaces"):
// `etg upstream` runs the upstream service, whose packages (pg, PGlite, Fastify's swagger…) a
// cabinet does not install, and `etg soak`'s kill campaign bundles its target with esbuild, a
// development tool (cli/package.json, `devOnlyImports`). Their modules are loaded only when one of
// them runs, and where what they need is not installed the command says so and how to install it,
// instead of naming a missing package.

/** What a command needs beyond the cabinet's install, and how to get it. */
export interface Needs {
  /** e.g. `the upstream workspace`. */
  readonly what: string;
  /** e.g. `npm install --workspace upstream`. */
  readonly install: string;
}

export const UPSTREAM_WORKSPACE: Needs = { what: 'the upstream workspace', install: 'npm install --workspace upstream' };
export const DEVELOPMENT_INSTALL: Needs = { what: "the repository's development install", install: 'npm install at the repository root' };

function missingPackage(e: unknown): e is Error {
  return e instanceof Error && 'code' in e && e.code === 'ERR_MODULE_NOT_FOUND';
}

/** Loads a command module; a package it needs that is not installed is a plain refusal saying what to install. */
export async function loadNeeding(needs: Needs, load: () => Promise<unknown>): Promise<unknown> {
  try {
    return await load();
  } catch (e) {
    if (!missingPackage(e)) throw e;
    const first = e.message.split('\n')[0] ?? e.message;
    throw new Error(`this command needs ${needs.what}, which is not installed here (${first}): ${needs.install} (docs/architecture.md, "Workspaces")`, {
      cause: e,
    });
  }
}
