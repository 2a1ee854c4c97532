import type { Command } from './command.js';

/** A command-line module: its options (for the help) and its body, which returns the exit code. */
export interface SubcommandModule {
  readonly command: Command;
  run(argv: string[]): Promise<number> | number;
}

/** A tool made of subcommands, each a module `cli/<tool>/<name>.ts`. */
export interface Tool {
  readonly name: string;
  readonly summary: string;
  /** How a subcommand is chosen, e.g. `<command>` or `--game <game>`. */
  readonly pick: string;
  readonly subcommands: readonly string[];
  load(name: string): Promise<unknown>;
}

function isSubcommandModule(mod: unknown): mod is SubcommandModule {
  if (typeof mod !== 'object' || mod === null) return false;
  return 'run' in mod && typeof mod.run === 'function' && 'command' in mod && typeof mod.command === 'object' && mod.command !== null;
}

/** Loads a subcommand's module; undefined when the tool has none of that name. */
export async function loadSubcommand(tool: Tool, name: string): Promise<SubcommandModule | undefined> {
  if (!tool.subcommands.includes(name)) return undefined;
  const mod = await tool.load(name);
  if (!isSubcommandModule(mod)) throw new Error(`${tool.name}: the module of "${name}" has no command or run()`);
  return mod;
}

/** The tool's help: its synopsis and every subcommand with its one-line summary (read from its module). */
export async function toolHelp(tool: Tool): Promise<string> {
  const rows: [string, string][] = [];
  for (const name of tool.subcommands) {
    const mod = await loadSubcommand(tool, name);
    // The summary's first sentence: one line per command.
    rows.push([name, mod?.command.summary.replaceAll('\n', ' ').split(/(?<=\.) /)[0] ?? '']);
  }
  const width = Math.max(...rows.map(([n]) => n.length)) + 2;
  return [
    `usage: npm run --silent ${tool.name} -- ${tool.pick} [options]`,
    '',
    tool.summary,
    '',
    'Commands:',
    ...rows.map(([n, s]) => `  ${n.padEnd(width)}${s}`),
    '',
    `Each takes --help: npm run --silent ${tool.name} -- ${tool.pick} --help`,
  ].join('\n');
}

/**
 * Dispatches `<tool> <name> …` to the module of that name. `--help` (or `-h`, `help`) alone lists
 * the subcommands, exit 0; no name or an unknown one is a usage error, exit 2, with that list.
 */
export async function runSubcommand(tool: Tool, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    console.log(await toolHelp(tool));
    return 0;
  }
  const mod = name === undefined ? undefined : await loadSubcommand(tool, name);
  if (!mod) {
    console.error(`${name === undefined ? `${tool.name}: which command?` : `${tool.name}: unknown command "${name}"`}\n\n${await toolHelp(tool)}`);
    return 2;
  }
  return mod.run(rest);
}
