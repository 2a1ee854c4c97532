// A command's options are defined once: parseArgs parses with that definition and the help is
// printed from it, so the help cannot list an option the parser refuses, nor miss one it takes.
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
  /** As typed after the tool, e.g. `ledger recall`. */
  readonly name: string;
  /** One line: what the command does (the tool's list of commands shows it). */
  readonly summary: string;
  /** The synopsis, one line per form, and any note on how options combine. */
  readonly usage: string;
  readonly options: O;
  /** The positional arguments the command takes, as the help names them; none when absent. */
  readonly positionals?: string;
}

/** Keeps the literal types of the options, so the parsed values are typed from the definition. */
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}

const HELP = { type: 'boolean', short: 'h', help: 'this help' } as const satisfies OptionSpec;

function optionLabel(name: string, o: OptionSpec): string {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${name}`;
  if (o.type === 'boolean') return flag;
  return `${flag} ${o.value ?? 'VALUE'}${o.multiple ? ' …' : ''}`;
}

function defaultNote(o: OptionSpec): string {
  if (o.default === undefined || o.default === false) return '';
  return ` (default: ${Array.isArray(o.default) ? o.default.join(', ') : String(o.default)})`;
}

/** The help of a command: synopsis, summary, then every option with its line. */
export function helpText(command: Command): string {
  const rows = Object.entries({ ...command.options, help: HELP }).map(([name, o]) => [optionLabel(name, o), `${o.help}${defaultNote(o)}`] as const);
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

/**
 * Parses `argv` (strict) with the command's options. `--help` ends the command there (HelpRequested,
 * which `runTool` prints, exit 0); a refusal is a UsageError naming the command and the argument.
 */
export function parseCommand<const O extends OptionSpecs>(command: Command<O>, argv: string[]) {
  const parse = () => parseArgs({ args: argv, options: { ...command.options, help: HELP }, strict: true, allowPositionals: command.positionals !== undefined });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (e) {
    throw new UsageError(`${command.name}: ${e instanceof Error ? e.message : String(e)}\n${command.usage}`);
  }
  if ('help' in parsed.values && parsed.values.help === true) throw new HelpRequested(helpText(command));
  return parsed;
}

/** The parsed option values only (most commands take no positional arguments). */
export function options<const O extends OptionSpecs>(command: Command<O>, argv: string[]) {
  return parseCommand(command, argv).values;
}
