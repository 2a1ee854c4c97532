import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { defineCommand, helpJson, helpText, jsonLast, options, wantsJson } from './command.js';
import { runTool, UsageError } from './tool.js';

const command = defineCommand({
  name: 'tool',
  summary: 'Does a thing.',
  usage: 'usage: tool --n N',
  options: { n: { type: 'string', value: 'N', help: 'how many', default: '3' }, set: { type: 'string', multiple: true, value: 'K=V', help: 'one more' } },
});

/** Runs `f` with console.log and console.error captured. */
async function captured(f: () => Promise<number>): Promise<{ code: number; out: unknown[]; err: unknown[] }> {
  const log = mock.method(console, 'log', () => undefined);
  const error = mock.method(console, 'error', () => undefined);
  try {
    const code = await f();
    return { code, out: log.mock.calls.map((c) => c.arguments[0]), err: error.mock.calls.map((c) => c.arguments[0]) };
  } finally {
    log.mock.restore();
    error.mock.restore();
  }
}

describe('cli commands: help, usage errors, failures, JSON mode', () => {
  it('prints the help on stdout and exits 0 for --help, without running the rest of the body', async () => {
    let ranOn = false;
    const r = await captured(() =>
      runTool('t', false, () => {
        options(command, ['--help']);
        ranOn = true;
        return 5;
      }),
    );
    assert.equal(r.code, 0);
    assert.equal(ranOn, false);
    assert.deepEqual(r.out, [helpText(command)]);
  });

  it('prints the help as JSON with --help --json', async () => {
    const r = await captured(() => runTool('t', true, () => (options(command, ['--help', '--json']), 0)));
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(String(r.out[0])), helpJson(command));
    assert.deepEqual(
      helpJson(command).options.map((o) => o.name),
      ['n', 'set', 'json', 'help'],
    );
  });

  it('prints each option with its value, repetition and default, from the definition the parser uses; --json on every command', () => {
    const help = helpText(command);
    assert.match(help, /^usage: tool --n N\n\nDoes a thing\.\n\nOptions:\n/);
    assert.match(help, /^ {2}--n N +how many \(default: 3\)$/m);
    assert.match(help, /^ {2}--set K=V … +one more$/m);
    assert.match(help, /^ {2}--json +machine-readable output/m);
    assert.match(help, /^ {2}-h, --help +this help/m);
    assert.deepEqual({ ...options(command, ['--set', 'a=1', '--set', 'b=2']) }, { json: false, n: '3', set: ['a=1', 'b=2'] });
    assert.equal(options(command, ['--json']).json, true);
  });

  it('refuses an unknown option naming it and the command, with the usage and exit code 2', async () => {
    const r = await captured(() => runTool('tool', false, () => (options(command, ['--bogus']), 0)));
    assert.equal(r.code, 2);
    assert.match(String(r.err[0]), /^tool: .*--bogus[\s\S]*usage: tool/);
  });

  it('in JSON mode a refusal is one JSON line on stderr: the problem, then the synopsis apart', async () => {
    const r = await captured(() => runTool('tool', true, () => (options(command, ['--bogus', '--json']), 0)));
    assert.equal(r.code, 2);
    const e = JSON.parse(String(r.err[0])) as Record<string, string>;
    assert.equal(e.error, 'usage');
    assert.equal(e.command, 'tool');
    assert.match(e.message ?? '', /^tool: .*--bogus/);
    assert.equal(e.detail, 'usage: tool --n N');
  });

  it('reports any other failure as "<name>: reason" with exit code 1, or as JSON', async () => {
    const fail = () => {
      throw new Error('disk gone');
    };
    const text = await captured(() => runTool('ledger verify', false, fail));
    assert.equal(text.code, 1);
    assert.deepEqual(text.err, ['ledger verify: disk gone']);
    const json = await captured(() => runTool('ledger verify', true, fail));
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(String(json.err[0])), { error: 'failed', command: 'ledger verify', message: 'disk gone' });
    assert.ok(new UsageError('x') instanceof Error);
  });

  it('reads --json from the arguments before any --', () => {
    assert.equal(wantsJson(['verify', '--json']), true);
    assert.equal(wantsJson(['verify', '--', '--json']), false);
    assert.equal(wantsJson(['verify', '--json=1']), false);
    assert.deepEqual(jsonLast(['--json', 'ledger', 'verify']), ['ledger', 'verify', '--json']);
    assert.deepEqual(jsonLast(['ledger', '--json']), ['ledger', '--json']);
  });
});
