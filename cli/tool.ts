import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A refusal of the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** `--help` was asked for: the usage is printed on stdout and the tool exits 0. */
class HelpRequested extends Error {}

/**
 * Parses options (strict) or throws a UsageError carrying the usage text. `--help` ends the tool
 * there with the usage, so no tool repeats that check.
 */
export function options<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], opts: T, usage: string) {
  const parse = () => parseArgs({ args: argv, options: { ...opts, help: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
  let values: ReturnType<typeof parse>;
  try {
    values = parse();
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : String(e)}\n${usage}`);
  }
  if ((values as { help?: boolean }).help) throw new HelpRequested(usage);
  return values;
}

/** Runs a tool body: usage errors → exit 2; any other failure → exit 1 with `<name>: reason`. */
export async function runTool(name: string, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof HelpRequested) {
      console.log(e.message);
      return 0;
    }
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    console.error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
