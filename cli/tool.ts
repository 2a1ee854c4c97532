/** A refusal of the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** `--help` was asked for: the help is printed on stdout and the tool exits 0. */
export class HelpRequested extends Error {}

/** Runs a tool body: `--help` → the help, exit 0; usage errors → exit 2; any other failure → exit 1 with `<name>: reason`. */
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
