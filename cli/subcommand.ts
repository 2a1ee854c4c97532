// The tools `etg` dispatches to: a group of subcommands (`etg ledger verify …`), each in its own
// module loaded only when run, or a single command (`etg start …`). Every module exports the
// command's definition and its body (`CommandModule`).
import { jsonLast, type CommandModule } from './command.js';
import { runTool, UsageError } from './tool.js';

interface ToolBase {
  readonly name: string;
  /** One line: what the tool is for (the list of tools shows it). */
  readonly summary: string;
}

/** A tool made of subcommands, each a module `cli/<tool>/<name>.ts`. */
export interface ToolGroup extends ToolBase {
  readonly kind: 'group';
  /** How a subcommand is chosen, e.g. `<command>` or `--game <game>`. */
  readonly pick: string;
  /** Each subcommand and its line in the list, kept here so that listing them loads none of them. */
  readonly subcommands: Readonly<Record<string, string>>;
  load(name: string): Promise<unknown>;
  /** Rewrites the arguments to `<name> …` where the tool picks otherwise (round's --game, upstream's default). */
  route?(argv: string[]): string[];
}

/** A tool that is one command, e.g. `start`. */
export interface SingleTool extends ToolBase {
  readonly kind: 'single';
  load(): Promise<unknown>;
}

export type Tool = ToolGroup | SingleTool;

function isCommandModule(mod: unknown): mod is CommandModule {
  if (typeof mod !== 'object' || mod === null) return false;
  return 'run' in mod && typeof mod.run === 'function' && 'command' in mod && typeof mod.command === 'object' && mod.command !== null;
}

async function loaded(what: string, load: () => Promise<unknown>): Promise<CommandModule> {
  const mod = await load();
  if (!isCommandModule(mod)) throw new Error(`${what}: its module has no command or run()`);
  return mod;
}

/** Loads a subcommand's module; undefined when the tool has none of that name. */
export async function loadSubcommand(tool: ToolGroup, name: string): Promise<CommandModule | undefined> {
  if (!Object.hasOwn(tool.subcommands, name)) return undefined;
  return loaded(`${tool.name} ${name}`, () => tool.load(name));
}

/** The module of a tool that is one command. */
export function loadSingle(tool: SingleTool): Promise<CommandModule> {
  return loaded(tool.name, () => tool.load());
}

export const isHelp = (arg: string | undefined): boolean => arg === '--help' || arg === '-h' || arg === 'help';

/** A group's help: its synopsis and every subcommand with its line. */
export function groupHelpText(tool: ToolGroup): string {
  const rows = Object.entries(tool.subcommands);
  const width = Math.max(...rows.map(([n]) => n.length)) + 2;
  return [
    `usage: etg ${tool.name} ${tool.pick} [options]`,
    '',
    tool.summary,
    '',
    'Commands:',
    ...rows.map(([n, s]) => `  ${n.padEnd(width)}${s}`),
    '',
    `Each answers --help: etg ${tool.name} ${tool.pick} --help. Every command takes --json.`,
  ].join('\n');
}

export function groupHelpJson(tool: ToolGroup) {
  return {
    tool: tool.name,
    summary: tool.summary,
    usage: `etg ${tool.name} ${tool.pick} [options]`,
    commands: Object.entries(tool.subcommands).map(([name, summary]) => ({ name, summary })),
  };
}

/** Runs one command module: its exit code, with help, usage errors and failures reported. */
export function runModule(mod: CommandModule, argv: string[], json: boolean): Promise<number> {
  return runTool(mod.command.name, json, () => mod.run(argv));
}

/**
 * Dispatches `etg <tool> <name> …` to the module of that name. `--help` (or `-h`, `help`) alone
 * lists the subcommands, exit 0; no name or an unknown one is a usage error, exit 2.
 */
export async function runGroup(tool: ToolGroup, args: string[], json: boolean): Promise<number> {
  const [name, ...rest] = tool.route ? tool.route(jsonLast(args)) : jsonLast(args);
  return runTool(tool.name, json, async () => {
    if (isHelp(name)) {
      console.log(json ? JSON.stringify(groupHelpJson(tool)) : groupHelpText(tool));
      return 0;
    }
    const problem = name === undefined ? 'which command?' : `unknown command "${name}"`;
    const mod = name === undefined ? undefined : await loadSubcommand(tool, name);
    if (!mod) throw new UsageError(json ? `${tool.name}: ${problem}` : `${tool.name}: ${problem}\n\n${groupHelpText(tool)}`);
    return runModule(mod, rest, json);
  });
}
