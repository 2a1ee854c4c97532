// `etg`: the kiosk's one command line. `etg <tool> [<command>] [options]`; `--help` at every level
// lists what exists (exit 0), a refused command line exits 2 naming the argument, `--json` makes
// any command's output (and its errors) JSON. docs/cli.md lists the tools and why parseArgs.
import path from 'node:path';
import { jsonLast, wantsJson } from './command.js';
import { enginesNode, packageVersion, runtimeProblem } from './runtime.js';
import { isHelp, loadSingle, runGroup, runModule, type Tool } from './subcommand.js';
import { runTool, UsageError } from './tool.js';
import { TOOLS } from './tools.js';

const root = path.resolve(import.meta.dirname, '..');

/** A tool's lines in the list: its summary, then a group's commands. */
function toolLines(tool: Tool, width: number): string[] {
  const head = `  ${tool.name.padEnd(width)}${tool.summary}`;
  return tool.kind === 'group' ? [head, `  ${' '.repeat(width)}${Object.keys(tool.subcommands).join(', ')}`] : [head];
}

export function helpText(): string {
  const tools = Object.values(TOOLS);
  const width = Math.max(...tools.map((t) => t.name.length)) + 2;
  return [
    'usage: etg <tool> [<command>] [options]',
    '',
    "The kiosk's command line: the kiosk itself, its ledger, devices and service accounts, the games'",
    'simulators and round replays, the upstream service, the soak test.',
    '',
    'Tools:',
    ...tools.flatMap((t) => toolLines(t, width)),
    '',
    'etg <tool> --help lists its commands, etg <tool> <command> --help their options; etg --version.',
    'Every command takes --json. Exit codes: 0 done, 1 failed, 2 command line refused.',
  ].join('\n');
}

export function helpJson() {
  return {
    tool: 'etg',
    usage: 'etg <tool> [<command>] [options]',
    tools: Object.values(TOOLS).map((t) => ({
      name: t.name,
      summary: t.summary,
      ...(t.kind === 'group' ? { commands: Object.entries(t.subcommands).map(([name, summary]) => ({ name, summary })) } : {}),
    })),
  };
}

function isTool(name: string): name is keyof typeof TOOLS {
  return Object.hasOwn(TOOLS, name);
}

/** Runs `etg` with these arguments; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  const [name, ...rest] = jsonLast(argv);
  return runTool('etg', json, async () => {
    const problem = runtimeProblem(process.version, enginesNode(root));
    if (problem) throw new Error(problem);
    if (isHelp(name)) {
      console.log(json ? JSON.stringify(helpJson()) : helpText());
      return 0;
    }
    if (name === '--version') {
      const version = { etg: packageVersion(root), node: process.version };
      console.log(json ? JSON.stringify(version) : `etg ${version.etg} (Node ${version.node})`);
      return 0;
    }
    if (name === undefined || !isTool(name)) {
      const what = name === undefined ? 'which tool?' : `unknown tool "${name}"`;
      throw new UsageError(json ? `etg: ${what}` : `etg: ${what}\n\n${helpText()}`);
    }
    const tool: Tool = TOOLS[name];
    if (tool.kind === 'group') return runGroup(tool, rest, json);
    return runModule(await loadSingle(tool), rest, json);
  });
}
