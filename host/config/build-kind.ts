/**
 * Which build runs: `production` for the packaged kiosk (deploy/build.ts defines
 * `ETG_PRODUCTION_BUILD` as true in the bundles it makes), `test` for the sources that `node --test`,
 * `npm start` and the benchmarks run. A production build takes no mode that exists only for tests:
 * a remote station's agent that runs the acceptor's driver itself, and reports credits, is
 * refused there (issue 50; `remoteAcceptors.relayOnly`).
 */
declare const ETG_PRODUCTION_BUILD: boolean | undefined;

export type BuildKind = 'production' | 'test';

/** What the cabinet's bundles define (deploy/build.ts): they are the production build. */
export const CABINET_DEFINE: Readonly<Record<string, string>> = { ETG_PRODUCTION_BUILD: 'true' };

export const BUILD: BuildKind = typeof ETG_PRODUCTION_BUILD !== 'undefined' && ETG_PRODUCTION_BUILD ? 'production' : 'test';

/** The remote acceptors' relay-only rule a build applies: the configuration's, else relay only in production. */
export function relayOnlyFor(setting: boolean | undefined, build: BuildKind): boolean {
  if (build === 'production' && setting === false)
    throw new Error(
      'remoteAcceptors.relayOnly is false: a production build takes relayed acceptors only (an agent that runs the driver itself could report credits for notes that never existed); remove the setting',
    );
  return setting ?? build === 'production';
}
