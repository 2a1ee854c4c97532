// `etg` over a table of tools: the help that lists them, `--version`, and the dispatch to a tool.
// The repository's `etg` (cli/etg.ts) has every tool; each machine's bundle has its own table
// (deploy/etg-entry.ts: the cabinet's tools, deploy/upstream-entry.ts: the upstream's), so neither
// carries the other's commands or the packages they import (docs/deploy.md).
import path from 'node:path';
import { jsonLast, wantsJson } from './command.js';
import { enginesNode, packageVersion, runtimeProblem } from './runtime.js';
import { isHelp, loadSingle, runGroup, runModule, type Tool } from './subcommand.js';
import { runTool, UsageError } from './tool.js';

/** In a clone, the repository; in a bundle (bin/etg.mjs), the staged folder: where package.json is. */
const root = path.resolve(import.meta.dirname, '..');

/** A command line: its tools, and the lines of the help that say what it is for. */
export interface Etg {
  readonly tools: Readonly<Record<string, Tool>>;
  readonly about: readonly string[];
}

/** A tool's lines in the list: its summary, then a group's commands. */
function toolLines(tool: Tool, width: number): string[] {
  const head = `  ${tool.name.padEnd(width)}${tool.summary}`;
  return tool.kind === 'group' ? [head, `  ${' '.repeat(width)}${Object.keys(tool.subcommands).join(', ')}`] : [head];
}

export function helpText(etg: Etg): string {
  const tools = Object.values(etg.tools);
  const width = Math.max(...tools.map((t) => t.name.length)) + 2;
  return [
    'usage: etg <tool> [<command>] [options]',
    '',
    ...etg.about,
    '',
    'Tools:',
    ...tools.flatMap((t) => toolLines(t, width)),
    '',
    'etg <tool> --help lists its commands, etg <tool> <command> --help their options; etg --version.',
    'Every command takes --json. Exit codes: 0 done, 1 failed, 2 command line refused.',
  ].join('\n');
}

export function helpJson(etg: Etg) {
  return {
    tool: 'etg',
    usage: 'etg <tool> [<command>] [options]',
    tools: Object.values(etg.tools).map((t) => ({
      name: t.name,
      summary: t.summary,
      ...(t.kind === 'group' ? { commands: Object.entries(t.subcommands).map(([name, summary]) => ({ name, summary })) } : {}),
    })),
  };
}

/** Runs `etg` with these arguments over these tools; returns the exit code. */
export async function runEtg(etg: Etg, argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  const [name, ...rest] = jsonLast(argv);
  return runTool('etg', json, async () => {
    const problem = runtimeProblem(process.version, enginesNode(root));
    if (problem) throw new Error(problem);
    if (isHelp(name)) {
      console.log(json ? JSON.stringify(helpJson(etg)) : helpText(etg));
      return 0;
    }
    if (name === '--version') {
      const version = { etg: packageVersion(root), node: process.version };
      console.log(json ? JSON.stringify(version) : `etg ${version.etg} (Node ${version.node})`);
      return 0;
    }
    const tool = name === undefined || !Object.hasOwn(etg.tools, name) ? undefined : etg.tools[name];
    if (name === undefined || tool === undefined) {
      const what = name === undefined ? 'which tool?' : `unknown tool "${name}"`;
      throw new UsageError(json ? `etg: ${what}` : `etg: ${what}\n\n${helpText(etg)}`);
    }
    if (tool.kind === 'group') return runGroup(tool, rest, json);
    return runModule(await loadSingle(tool), rest, json);
  });
}
