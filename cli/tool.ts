import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A refusal of the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** Parses options (strict, with --help) or throws a UsageError carrying the usage text. */
export function options<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], opts: T, usage: string) {
  try {
    return parseArgs({ args: argv, options: { ...opts, help: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : String(e)}\n${usage}`);
  }
}

/** Runs a tool body: usage errors → exit 2; any other failure → exit 1 with `<name>: reason`. */
export async function runTool(name: string, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    console.error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
