/** A command-line module: gets its arguments, prints its output, returns the exit code. */
export interface SubcommandModule {
  run(argv: string[]): Promise<number> | number;
}

const NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Dispatches `<tool> <name> …` to the module of that name. Unknown names and usage errors exit
 * with 2 and a message on stderr, like every tool here.
 */
export async function runSubcommand(tool: string, argv: string[], load: (name: string) => Promise<unknown>): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || !NAME.test(name)) {
    console.error(`usage: npm run --silent ${tool} -- <name> [options]`);
    return 2;
  }
  let mod: unknown;
  try {
    mod = await load(name);
  } catch (e) {
    if (e instanceof Error && 'code' in e && e.code === 'ERR_MODULE_NOT_FOUND' && e.message.includes(`/${name}.`)) {
      console.error(`${tool}: unknown name "${name}"`);
      return 2;
    }
    throw e;
  }
  if (typeof mod !== 'object' || mod === null || typeof (mod as SubcommandModule).run !== 'function') {
    console.error(`${tool}: "${name}" has no run()`);
    return 2;
  }
  return (mod as SubcommandModule).run(rest);
}
