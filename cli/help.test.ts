// `etg --help`, `etg <tool> --help` and `etg <tool> <command> --help` answer with exit 0 and list
// what exists; every command lists each option it accepts, the parser accepts each option the
// help lists and refuses one it does not (exit 2, naming it); every command takes --json.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it, mock } from 'node:test';
import { helpJson, helpText, parseCommand, type Command, type CommandModule } from './command.js';
import { main, TOOLS } from './etg.js';
import { runtimeProblem } from './runtime.js';
import { loadSingle, loadSubcommand, type Tool } from './subcommand.js';
import { HelpRequested, UsageError } from './tool.js';

const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/etg.js');

/** Runs `etg` in this process with console.log and console.error captured. */
async function etg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const log = mock.method(console, 'log', () => undefined);
  const error = mock.method(console, 'error', () => undefined);
  try {
    const code = await main(argv);
    const text = (m: typeof log) => m.mock.calls.map((c) => String(c.arguments[0])).join('\n');
    return { code, out: text(log), err: text(error) };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}

/** A value each option can take without the parser complaining before --help is reached. */
function argsFor(name: string, command: Command): string[] {
  // --json is every command's, a flag unless the command defines it otherwise.
  const type = command.options[name]?.type ?? (name === 'json' ? 'boolean' : undefined);
  return type === 'boolean' ? [`--${name}`] : [`--${name}`, 'x'];
}

function assertListsEveryOption(command: Command, help: string): void {
  for (const name of [...Object.keys(command.options), 'json', 'help'])
    assert.match(help, new RegExp(`--${name}\\b`), `${command.name} --help lists --${name}`);
  // The parser takes every option the help lists (given before --help, each is parsed first), and --json.
  for (const name of [...Object.keys(command.options), 'json'])
    assert.throws(() => parseCommand(command, [...argsFor(name, command), '--help']), HelpRequested, `${command.name} accepts --${name}`);
  assert.throws(
    () => parseCommand(command, ['--no-such-option']),
    (e: unknown) => e instanceof UsageError && e.message.includes('--no-such-option'),
  );
}

/** Every command of every tool, as `etg` loads it, with the arguments that name it. */
async function everyCommand(): Promise<{ args: string[]; mod: CommandModule }[]> {
  const all: { args: string[]; mod: CommandModule }[] = [];
  for (const tool of Object.values(TOOLS) as Tool[]) {
    if (tool.kind === 'single') all.push({ args: [tool.name], mod: await loadSingle(tool) });
    else
      for (const name of Object.keys(tool.subcommands)) {
        const mod = await loadSubcommand(tool, name);
        assert.ok(mod, `${tool.name} ${name} loads`);
        all.push({ args: [tool.name, name], mod });
      }
  }
  return all;
}

describe('etg --help at every level', () => {
  it('etg --help lists every tool and its commands, exit 0; as JSON with --json', async () => {
    const text = await etg('--help');
    assert.equal(text.code, 0, text.err);
    for (const tool of Object.values(TOOLS) as Tool[]) {
      assert.match(text.out, new RegExp(`^ {2}${tool.name} +${tool.summary.slice(0, 20).replace(/[()]/g, '\\$&')}`, 'm'));
      if (tool.kind === 'group') assert.match(text.out, new RegExp(`^ +${Object.keys(tool.subcommands).join(', ')}$`, 'm'));
    }
    const json = await etg('--help', '--json');
    assert.equal(json.code, 0);
    assert.equal((await etg('--json', '--help')).out, json.out, '--json first works too');
    const listed = JSON.parse(json.out) as { tools: { name: string; commands?: { name: string }[] }[] };
    assert.deepEqual(
      listed.tools.map((t) => [t.name, t.commands?.map((c) => c.name)]),
      (Object.values(TOOLS) as Tool[]).map((t) => [t.name, t.kind === 'group' ? Object.keys(t.subcommands) : undefined]),
    );
  });

  it('etg alone or with an unknown tool exits 2 naming it', async () => {
    const none = await etg();
    assert.equal(none.code, 2);
    assert.match(none.err, /^etg: which tool\?/);
    const bad = await etg('no-such-tool', '--json');
    assert.equal(bad.code, 2);
    assert.deepEqual(JSON.parse(bad.err), { error: 'usage', command: 'etg', message: 'etg: unknown tool "no-such-tool"' });
  });

  for (const tool of Object.values(TOOLS) as Tool[]) {
    if (tool.kind !== 'group') continue;
    it(`etg ${tool.name} --help lists its commands, exit 0; no command or an unknown one exits 2`, async () => {
      const help = await etg(tool.name, '--help');
      assert.equal(help.code, 0, help.err);
      for (const [name, line] of Object.entries(tool.subcommands)) {
        assert.ok(line.length > 0, `${tool.name} ${name} has a line in the list`);
        assert.match(help.out, new RegExp(`^ {2}${name} +\\S`, 'm'));
      }
      const json = JSON.parse((await etg(tool.name, '--help', '--json')).out) as { commands: { name: string }[] };
      assert.deepEqual(
        json.commands.map((c) => c.name),
        Object.keys(tool.subcommands),
      );
      const none = await etg(tool.name);
      assert.equal(none.code, 2);
      assert.match(none.err, /which command/);
      const bad = await etg(tool.name, 'no-such-command');
      assert.equal(bad.code, 2);
      assert.match(bad.err, /unknown command "no-such-command"/);
    });

    it(`${tool.name}: every module under cli/${tool.name}/ with a run() is a listed command`, async () => {
      const dir = path.join(import.meta.dirname, tool.name);
      const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
      for (const f of files) {
        const mod: unknown = await import(path.join(dir, f));
        const runs = typeof mod === 'object' && mod !== null && 'run' in mod;
        assert.equal(runs, Object.hasOwn(tool.subcommands, f.replace(/\.ts$/, '')), `${tool.name}/${f}`);
      }
    });
  }

  it('etg <tool> <command> --help: exit 0, the command help listing every option it accepts; --help --json as data', async () => {
    for (const { args, mod } of await everyCommand()) {
      const what = args.join(' ');
      assert.equal(mod.command.name, what, `the module of "${what}" names itself so`);
      const r = await etg(...args, '--help');
      assert.equal(r.code, 0, `${what}: ${r.err}`);
      assert.equal(r.out, helpText(mod.command));
      assertListsEveryOption(mod.command, r.out);
      const json = await etg(...args, '--help', '--json');
      assert.deepEqual(JSON.parse(json.out), helpJson(mod.command), what);
    }
  });

  it('etg <tool> <command> with an unknown option exits 2 naming it, as text and as JSON', async () => {
    for (const { args } of await everyCommand()) {
      const what = args.join(' ');
      const text = await etg(...args, '--no-such-option');
      assert.equal(text.code, 2, what);
      assert.match(text.err, /--no-such-option/, what);
      const json = await etg(...args, '--no-such-option', '--json');
      assert.equal(json.code, 2, what);
      const e = JSON.parse(json.err) as { error: string; command: string; message: string };
      assert.equal(e.error, 'usage');
      assert.equal(e.command, what);
      assert.match(e.message, /--no-such-option/);
    }
  });

  it('takes --json before the tool or command name too', async () => {
    const r = await etg('--json', 'ledger', '--json', 'verify', '--help');
    assert.equal(r.code, 0, r.err);
    assert.equal((JSON.parse(r.out) as { command: string }).command, 'ledger verify');
  });

  it('picks a subcommand the way each tool does: round --game (either form), upstream options first means serve', async () => {
    assert.match((await etg('round', '--game', 'war', '--help')).out, /--main-with-tie-bet returned\|choose/);
    assert.match((await etg('round', '--game=baccarat', '--help')).out, /^usage: etg round --game baccarat/);
    assert.match((await etg('upstream', '--data-dir', 'x', '--help')).out, /^usage: etg upstream \[serve\]/);
  });

  it('refuses to run on a Node the engines range does not admit, naming the way out', () => {
    assert.equal(runtimeProblem('v24.21.0', '^24.11.0'), null);
    assert.match(runtimeProblem('v20.20.2', '^24.11.0') ?? '', /^Node v20\.20\.2 cannot run it: .*Run it as `npm run <tool> -- …` or `npx etg …`/);
    assert.match(runtimeProblem('v26.1.0', '^24.11.0') ?? '', /wants Node \^24\.11\.0/);
  });

  it('answers from the bin as the user types it, before anything is built: start --build --help needs no npm', () => {
    const run = (args: string[], env: NodeJS.ProcessEnv = process.env) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });
    const sim = run(['sim', '--help']);
    assert.equal(sim.status, 0, sim.stderr);
    assert.match(sim.stdout, /^ {2}blackjack-sidebets /m);
    const bj = run(['sim', 'blackjack', '--help']);
    assert.equal(bj.status, 0, bj.stderr);
    assert.match(bj.stdout, /--print-rules/);
    // `npm start` is `etg start --build`: with no npm on PATH a build would fail, so exit 0 shows
    // the help was answered before any build was tried.
    const start = run(['start', '--build', '--help'], { ...process.env, PATH: path.dirname(process.execPath) });
    assert.equal(start.status, 0, start.stderr);
    assert.match(start.stdout, /--headless/);
    const soak = run(['soak', '--help']);
    assert.equal(soak.status, 0, soak.stderr);
    assert.match(soak.stdout, /--kill-every M/);
    const version = run(['--version', '--json']);
    assert.equal(version.status, 0, version.stderr);
    assert.equal((JSON.parse(version.stdout) as { node: string }).node, process.version);
  });
});
