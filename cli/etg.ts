// `etg`: the kiosk's one command line. `etg <tool> [<command>] [options]`; `--help` at every level
// lists what exists (exit 0), a refused command line exits 2 naming the argument, `--json` makes
// any command's output (and its errors) JSON. docs/cli.md lists the tools and why parseArgs.
// This is the repository's `etg`, with every tool; the machines' bundles have their own tables.
import { helpJson as helpJsonOf, helpText as helpTextOf, runEtg, type Etg } from './dispatch.js';
import { KIOSK_TOOLS } from './tools.js';
import { UPSTREAM_TOOLS } from './upstream-tools.js';

export const TOOLS = { ...KIOSK_TOOLS, ...UPSTREAM_TOOLS } as const;

const ETG: Etg = {
  tools: TOOLS,
  about: [
    "The kiosk's command line: the kiosk itself, its ledger, devices and service accounts, the games'",
    'simulators and round replays, the upstream service, the soak test.',
  ],
};

export const helpText = (): string => helpTextOf(ETG);
export const helpJson = () => helpJsonOf(ETG);

/** Runs `etg` with these arguments; returns the exit code. */
export function main(argv: string[]): Promise<number> {
  return runEtg(ETG, argv);
}
