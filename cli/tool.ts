// How a command ends, in one place: the exit code and what is printed, as text or (--json) JSON.
//   0  done, or --help answered
//   1  the command ran and failed (a ledger that does not verify, a device that does not answer)
//   2  the command line was refused: an unknown option or command, a missing or bad value

/** A refusal of the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** `--help` was asked for: the help is printed on stdout and the command exits 0. */
export class HelpRequested extends Error {
  constructor(
    readonly text: string,
    /** The same help as data, for `--help --json`. */
    readonly data: unknown,
  ) {
    super(text);
  }
}

/** Prints how a command ended and returns its exit code (see the table at the top). */
export function report(name: string, e: unknown, json: boolean): number {
  if (e instanceof HelpRequested) {
    console.log(json ? JSON.stringify(e.data) : e.text);
    return 0;
  }
  const usage = e instanceof UsageError;
  const message = e instanceof Error ? e.message : String(e);
  // The first line says what is wrong; a usage error's further lines are the synopsis or the list.
  const [problem = message, ...more] = message.split('\n');
  const detail = more.join('\n').trim();
  if (json) console.error(JSON.stringify({ error: usage ? 'usage' : 'failed', command: name, message: problem, ...(detail ? { detail } : {}) }));
  else console.error(usage || message.startsWith(`${name}:`) ? message : `${name}: ${message}`);
  return usage ? 2 : 1;
}

/** Runs a command body: its exit code, or how it ended (help, usage error, failure) reported. */
export async function runTool(name: string, json: boolean, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (e) {
    return report(name, e, json);
  }
}
