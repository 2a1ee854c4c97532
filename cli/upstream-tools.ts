// The upstream's tool: its service and the tools beside it. The repository's `etg` has it with the
// kiosk's (cli/etg.ts); the upstream's bundle has it alone (deploy/upstream-entry.ts), and a
// cabinet's has it not at all. Its modules are loaded only when one of its commands runs.
import { isHelp, type Tool } from './subcommand.js';
import { loadNeeding, UPSTREAM_WORKSPACE } from './workspace-load.js';

/** `upstream --pg URL …`: options first means `serve`. */
function serveByDefault(argv: string[]): string[] {
  const first = argv[0];
  return first !== undefined && first.startsWith('-') && !isHelp(first) ? ['serve', ...argv] : argv;
}

export const UPSTREAM_TOOLS = {
  upstream: {
    kind: 'group',
    name: 'upstream',
    summary: 'The upstream service (options first means serve) and its tools.',
    pick: '<command>',
    subcommands: {
      serve: 'The upstream service.',
      enroll: "Creates a terminal's key and prints its credentials (once).",
      verify: "Re-hashes each terminal's stored chain and looks for gaps.",
      revoke: "Refuses a terminal's requests from now on.",
      user: "Makes, replaces, disables or lists the back office's users (docs/backoffice.md).",
      ticket: 'Looks a cash-out ticket up by its validation number, or prints the ticket liability.',
    },
    // The upstream workspace's packages: a cabinet's install has none of them (cli/workspace-load.ts).
    load: (name) => loadNeeding(UPSTREAM_WORKSPACE, () => import(`./upstream/${name}.ts`)),
    route: serveByDefault,
  },
} as const satisfies Record<string, Tool>;
