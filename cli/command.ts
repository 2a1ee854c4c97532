// A command's options are defined once: node:util's parseArgs parses with that definition and the
// help is printed from it, so the help cannot list an option the parser refuses, nor miss one it
// takes. Every command also answers --help and --json (docs/cli.md: why parseArgs, not a library).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HelpRequested, UsageError } from './tool.js';

/** One option as parseArgs takes it (node:util does not export that type by name). */
type ParseArgsOption = NonNullable<ParseArgsConfig['options']>[string];

export interface OptionSpec extends ParseArgsOption {
  /** What the option does: its line in the help. */
  readonly help: string;
  /** The placeholder of a string option's value in the help (`DIR`, `N`). */
  readonly value?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** As typed after `etg`, e.g. `ledger recall`. */
  readonly name: string;
  /** What the command does; its first sentence is its line in the tool's list of commands. */
  readonly summary: string;
  /** The synopsis, one line per form, and any note on how options combine. */
  readonly usage: string;
  readonly options: O;
  /** The positional arguments the command takes, as the help names them; none when absent. */
  readonly positionals?: string;
}

/** A command as `etg` runs it: its definition (for the help and the messages) and its body. */
export interface CommandModule {
  readonly command: Command;
  /** Returns the exit code; throws UsageError or HelpRequested, or any error for a failure. */
  run(argv: string[]): Promise<number> | number;
}

/** Keeps the literal types of the options, so the parsed values are typed from the definition. */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}

/** Every command takes these two; a command may define its own `json` to say what its JSON holds. */
const HELP = { type: 'boolean', short: 'h', help: 'this help (with --json: as JSON)' } as const satisfies OptionSpec;
const JSON_MODE = {
  type: 'boolean',
  default: false,
  help: 'machine-readable output: JSON on stdout, errors as one JSON line on stderr',
} as const satisfies OptionSpec;

/** The options a command's parser takes: its own, then --json (unless its own) and --help. */
function allOptions<const O extends OptionSpecs>(command: Command<O>) {
  return { json: JSON_MODE, ...command.options, help: HELP };
}

/**
 * Whether the command line asks for JSON: `--json` before any `--`. Read from the raw arguments
 * so that a refusal of the arguments themselves is reported in the mode that was asked for.
 */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** `--json` given before the tool or command name (`etg --json ledger verify`) moved after it, where the command's parser reads it. */
export function jsonLast(argv: readonly string[]): string[] {
  let lead = 0;
  while (argv[lead] === '--json') lead++;
  return lead === 0 ? [...argv] : [...argv.slice(lead), '--json'];
}

function optionLabel(name: string, o: OptionSpec): string {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${name}`;
  if (o.type === 'boolean') return flag;
  return `${flag} ${o.value ?? 'VALUE'}${o.multiple ? ' …' : ''}`;
}

function defaultNote(o: OptionSpec): string {
  if (o.default === undefined || o.default === false) return '';
  return ` (default: ${Array.isArray(o.default) ? o.default.join(', ') : String(o.default)})`;
}

/** The options as the help lists them: the command's own, then --json and --help. */
function listed(command: Command): [string, OptionSpec][] {
  return [...Object.entries(command.options), ...(command.options.json ? [] : [['json', JSON_MODE] as [string, OptionSpec]]), ['help', HELP]];
}

/** The help of a command: synopsis, summary, then every option with its line. */
export function helpText(command: Command): string {
  const rows = listed(command).map(([name, o]) => [optionLabel(name, o), `${o.help}${defaultNote(o)}`] as const);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    command.usage,
    '',
    command.summary,
    '',
    'Options:',
    ...rows.map(([label, help]) => `  ${label.padEnd(width)}${help.replaceAll('\n', `\n  ${' '.repeat(width)}`)}`),
  ].join('\n');
}

/** The help as data (`--help --json`): what a script or a form generator reads. */
export function helpJson(command: Command) {
  return {
    command: command.name,
    summary: command.summary.replaceAll('\n', ' '),
    usage: command.usage.split('\n'),
    ...(command.positionals ? { positionals: command.positionals } : {}),
    options: listed(command).map(([name, o]) => ({
      name,
      type: o.type,
      ...(o.short ? { short: o.short } : {}),
      ...(o.value ? { value: o.value } : {}),
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
      help: o.help.replaceAll('\n', ' '),
    })),
  };
}

/**
 * Parses `argv` (strict) with the command's options. `--help` ends the command there (HelpRequested:
 * the help is printed, exit 0); a refusal is a UsageError naming the command and the argument (exit 2).
 */
export function parseCommand<const O extends OptionSpecs>(command: Command<O>, argv: string[]) {
  const parse = () => parseArgs({ args: argv, options: allOptions(command), strict: true, allowPositionals: command.positionals !== undefined });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (e) {
    throw new UsageError(`${command.name}: ${e instanceof Error ? e.message : String(e)}\n${command.usage}`);
  }
  if ('help' in parsed.values && parsed.values.help === true) throw new HelpRequested(helpText(command), helpJson(command));
  return parsed;
}

/** The parsed option values only (most commands take no positional arguments). */
export function options<const O extends OptionSpecs>(command: Command<O>, argv: string[]) {
  return parseCommand(command, argv).values;
}
