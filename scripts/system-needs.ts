// What `npm test` needs of the machine besides Node and node_modules, and what to do when some of
// it is missing: install it where this user may (root, or sudo without a password), otherwise stop
// at once with the one command that installs it. The decision is a pure function of what is
// missing and what the user may do, so it is tested with fakes (system-needs.test.ts).

/** A Debian package the tests need, and why. */
export interface Need {
  readonly pkg: string;
  readonly why: string;
}

/** What this user may do about missing packages. */
export interface Abilities {
  /** Debian's apt-get is there. */
  readonly apt: boolean;
  readonly root: boolean;
  /** `sudo -n true` succeeds: sudo without a password. */
  readonly sudo: boolean;
  /** Installing was not turned off (CHECK_SYSTEM_INSTALL=no). */
  readonly allowed: boolean;
}

export type Plan =
  | { readonly kind: 'ready' }
  /** Commands (argv lists) to run in order, with DEBIAN_FRONTEND=noninteractive. */
  | { readonly kind: 'install'; readonly packages: readonly string[]; readonly commands: readonly (readonly string[])[] }
  | { readonly kind: 'stop'; readonly packages: readonly string[]; readonly reason: string; readonly line: string };

/** The one command a person runs to install `packages`. */
export function installLine(packages: readonly string[]): string {
  return `sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

export function plan(missing: readonly Need[], can: Abilities): Plan {
  const packages = missing.map((m) => m.pkg);
  if (packages.length === 0) return { kind: 'ready' };
  const stop = (reason: string): Plan => ({ kind: 'stop', packages, reason, line: installLine(packages) });
  if (!can.apt) return stop('this is not a Debian system (no apt-get): install the equivalents of these packages');
  if (!can.allowed) return stop('installing was turned off (CHECK_SYSTEM_INSTALL=no)');
  if (!can.root && !can.sudo) return stop('installing needs root or sudo without a password');
  const as = can.root ? [] : ['sudo', '-n'];
  return {
    kind: 'install',
    packages,
    commands: [
      [...as, 'apt-get', 'update', '-qq'],
      [...as, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
    ],
  };
}
