// Every tool and every subcommand answers --help with exit 0 and lists each option it accepts;
// the parser accepts each option the help lists, and refuses one it does not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it, mock } from 'node:test';
import { helpText, parseCommand, type Command } from './command.js';
import { SOAK_COMMAND } from './soak/command.js';
import { START_COMMAND } from './start/command.js';
import { loadSubcommand, runSubcommand, type SubcommandModule } from './subcommand.js';
import { HelpRequested, UsageError } from './tool.js';
import { TOOLS } from './tools.js';

/** Runs `f` with console.log and console.error captured; returns what each printed. */
async function captured(f: () => Promise<number> | number): Promise<{ code: number; out: string; err: string }> {
  const log = mock.method(console, 'log', () => undefined);
  const error = mock.method(console, 'error', () => undefined);
  try {
    const code = await f();
    const text = (m: typeof log) => m.mock.calls.map((c) => String(c.arguments[0])).join('\n');
    return { code, out: text(log), err: text(error) };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}

/** A value each option can take without --help complaining before it is reached. */
function argsFor(name: string, command: Command): string[] {
  const o = command.options[name];
  return o?.type === 'boolean' ? [`--${name}`] : [`--${name}`, 'x'];
}

function assertAnswersHelp(command: Command, help: string): void {
  for (const name of Object.keys(command.options)) assert.match(help, new RegExp(`--${name}\\b`), `${command.name} --help lists --${name}`);
  assert.match(help, /--help/);
  // The parser takes every option the help lists (given before --help, each is parsed first).
  for (const name of Object.keys(command.options))
    assert.throws(() => parseCommand(command, [...argsFor(name, command), '--help']), HelpRequested, `${command.name} accepts --${name}`);
  assert.throws(
    () => parseCommand(command, ['--no-such-option']),
    (e: unknown) => e instanceof UsageError && e.message.includes('--no-such-option'),
  );
}

describe('--help everywhere', () => {
  for (const tool of Object.values(TOOLS)) {
    it(`${tool.name} --help lists its subcommands and exits 0; no command exits 2`, async () => {
      const help = await captured(() => runSubcommand(tool, ['--help']));
      assert.equal(help.code, 0, help.err);
      for (const name of tool.subcommands) assert.match(help.out, new RegExp(`^  ${name} `, 'm'));
      const none = await captured(() => runSubcommand(tool, []));
      assert.equal(none.code, 2);
      assert.match(none.err, /which command/);
      const bad = await captured(() => runSubcommand(tool, ['no-such-command']));
      assert.equal(bad.code, 2);
      assert.match(bad.err, /unknown command "no-such-command"/);
    });

    it(`${tool.name}: every module under cli/${tool.name}/ with a run() is a listed subcommand`, async () => {
      const dir = path.join(import.meta.dirname, tool.name);
      const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
      for (const f of files) {
        const mod: unknown = await import(path.join(dir, f));
        const runs = typeof mod === 'object' && mod !== null && 'run' in mod;
        assert.equal(runs, (tool.subcommands as readonly string[]).includes(f.replace(/\.ts$/, '')), `${tool.name}/${f}`);
      }
    });

    for (const name of tool.subcommands) {
      it(`${tool.name} ${name} --help exits 0 and lists every option it accepts`, async () => {
        const mod = (await loadSubcommand(tool, name)) as SubcommandModule;
        const r = await captured(() => mod.run(['--help']));
        assert.equal(r.code, 0, r.err);
        assert.equal(r.out, helpText(mod.command));
        assertAnswersHelp(mod.command, r.out);
        const bad = await captured(() => mod.run(['--no-such-option']));
        assert.equal(bad.code, 2);
        assert.match(bad.err, /--no-such-option/);
      });
    }
  }

  for (const command of [START_COMMAND, SOAK_COMMAND]) {
    it(`${command.name} --help lists every option it accepts`, () => {
      assertAnswersHelp(command, helpText(command));
    });
  }

  it('answers as the user types it: sim --help, sim blackjack --help, round --game war --help, start --build --help, soak --help', () => {
    const cli = (file: string, args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8' });
    const sim = cli('cli/sim.ts', ['--help']);
    assert.equal(sim.status, 0, sim.stderr);
    assert.match(sim.stdout, /^ {2}blackjack-sidebets /m);
    const bj = cli('cli/sim.ts', ['blackjack', '--help']);
    assert.equal(bj.status, 0, bj.stderr);
    assert.match(bj.stdout, /--print-rules/);
    const war = cli('cli/round.ts', ['--game', 'war', '--help']);
    assert.equal(war.status, 0, war.stderr);
    assert.match(war.stdout, /--main-with-tie-bet returned\|choose/);
    // --build is what `npm start` passes: the help must come before any build.
    const start = cli('cli/start.ts', ['--build', '--help']);
    assert.equal(start.status, 0, start.stderr);
    assert.match(start.stdout, /--headless/);
    const soak = cli('cli/soak.ts', ['--help']);
    assert.equal(soak.status, 0, soak.stderr);
    assert.match(soak.stdout, /--kill-every M/);
  });
});
