// Issue 50 item 2: the ledger witness hardened like a service on the network. Before: one request,
// `{"op":"head","terminal":".."}` (or "."), killed the process with EISDIR (witness/wire.ts let the
// ids through; witness/witness.ts opened `heads/..` as its head file), and in a loop kept it down:
// new bets stopped after 60 s and the host could not start. Every error of a request is answered
// and logged, never fatal. And the modes of its socket and files, and of the kiosk's data folder,
// tried from another Unix user (the tests run as root, where every mode lets everything through).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { startHost } from '../../host/start-host.js';
import { genesisHash } from '../../ledger/index.js';
import { writeNewKeyFile } from '../../witness/index.js';
import { rawLines, spawnWitness, type WitnessProcess } from './witness-kit.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-service-'));
// World-traversable, as /run and /var/lib are: what stops another user must be the modes below it.
chmodSync(root, 0o755);
const witnessDir = path.join(root, 'witness');
const key = path.join(root, 'witness.key');
const socket = path.join(root, 'run', 'witness.sock');
let witness: WitnessProcess;

before(async () => {
  mkdirSync(witnessDir, { mode: 0o700 });
  mkdirSync(path.dirname(socket), { mode: 0o755 });
  writeNewKeyFile(key);
  witness = await spawnWitness(witnessDir, key, socket);
});
after(async () => {
  await witness.stop();
  rmSync(root, { recursive: true, force: true });
});

const kinds = (answers: Record<string, unknown>[]) => answers.map((a) => (a.ok === true ? a.op : a.error));

describe('the witness as a service: no request is fatal', { timeout: 120_000 }, () => {
  it('terminal ids "..", "." and any other that could name a path are refused by the schema; the witness goes on serving', async () => {
    for (const terminal of ['..', '.', '.hidden', '../x', 'a/b', '', 'x'.repeat(65), 'nul\u0000', 'é']) {
      const answers = await rawLines(socket, [
        `${JSON.stringify({ id: 1, op: 'head', terminal })}\n`,
        `${JSON.stringify({ id: 2, op: 'witness', terminal, from: { seq: 0, hash: genesisHash('T') }, links: [], to: { seq: 0, hash: genesisHash('T') } })}\n`,
      ]);
      assert.deepEqual(kinds(answers), ['bad-request', 'bad-request'], `${JSON.stringify(terminal)}: ${JSON.stringify(answers)}`);
      assert.ok(witness.alive(), `the witness died on terminal ${JSON.stringify(terminal)}: ${witness.stderr()}`);
    }
    assert.deepEqual(kinds(await rawLines(socket, ['{"id":3,"op":"hello"}\n'])), ['hello']);
    assert.deepEqual(readdirSync(path.join(witnessDir, 'heads')), [], 'no head file was made for any of them');
  });

  it("an error of the witness's own (its head file made a folder) is answered and logged, never fatal", async () => {
    mkdirSync(path.join(witnessDir, 'heads', 'broken'));
    const answers = await rawLines(socket, ['{"id":4,"op":"head","terminal":"broken"}\n', '{"id":5,"op":"hello"}\n']);
    assert.deepEqual(kinds(answers), ['failed', 'hello'], JSON.stringify(answers));
    assert.equal(answers[0]?.id, 4, 'answered under its own id');
    assert.ok(witness.alive(), witness.stderr());
    // The log line travels on another pipe than the answer: wait for it.
    const failedLine = () =>
      witness
        .stderr()
        .split('\n')
        .find((l) => l.includes('"error":"failed"'));
    for (const until = Date.now() + 10_000; !failedLine() && Date.now() < until;) await sleep(20);
    const logged = failedLine();
    assert.ok(logged?.includes('"terminal":"broken"') && logged.includes('EISDIR'), witness.stderr());
  });
});

/** Whether this process may run another as uid 65534 (root, and setpriv or runuser present). */
function dropper(): ((cmd: string[]) => string[]) | string {
  if (process.getuid?.() !== 0) return "the tests do not run as root: every file and socket here is the test user's own, so another uid cannot be tried";
  if (spawnSync('setpriv', ['--version']).status === 0) return (cmd) => ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...cmd];
  if (spawnSync('runuser', ['--version']).status === 0) return (cmd) => ['runuser', '-u', 'nobody', '--', ...cmd];
  return 'neither setpriv nor runuser is installed: the modes cannot be tried as another uid';
}

const drop = dropper();
if (typeof drop === 'string') {
  // LOUD: a skipped attack is a defence nobody tried.
  console.error(`\n*** SKIPPED: the witness and data folder from another Unix user: ${drop} ***\n`);
}

describe('from another Unix user (uid 65534)', { timeout: 120_000, skip: typeof drop === 'string' ? `SKIPPED LOUDLY: ${drop}` : false }, () => {
  const as = typeof drop === 'string' ? () => [] : drop;
  /** Runs `node -e code` as uid 65534; its exit status and output. */
  function attacker(code: string): { status: number | null; out: string } {
    const argv = as([process.execPath, '-e', code]);
    const r = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8', timeout: 20_000 });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }
  const tryRead = (file: string) => `try { require('fs').readFileSync(${JSON.stringify(file)}); console.log('READ'); } catch (e) { console.log(e.code); }`;
  const tryWrite = (file: string) =>
    `try { require('fs').writeFileSync(${JSON.stringify(file)}, 'x'); console.log('WROTE'); } catch (e) { console.log(e.code); }`;
  const tryList = (dir: string) => `try { require('fs').readdirSync(${JSON.stringify(dir)}); console.log('LISTED'); } catch (e) { console.log(e.code); }`;
  const tryAsk = (sock: string) =>
    `const s = require('net').createConnection(${JSON.stringify(sock)}); s.on('connect', () => { s.write('{"id":1,"op":"hello"}\\n'); }); s.on('data', (d) => { console.log('ANSWERED ' + d); s.destroy(); }); s.on('error', (e) => console.log(e.code));`;

  it('the control: as root the same probes read, write and are answered (so the refusals below are the modes)', () => {
    const me = (code: string) => execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    assert.match(me(tryRead(key)), /READ/);
    assert.match(me(tryAsk(socket)), /ANSWERED/);
    assert.equal(attacker('console.log(process.getuid())').out.trim(), '65534', 'the attacker really runs as uid 65534');
  });

  it("cannot read the witness's key or record, write its folder, or get a signature over its socket", () => {
    assert.match(attacker(tryRead(key)).out, /EACCES/);
    assert.match(attacker(tryList(witnessDir)).out, /EACCES/);
    assert.match(attacker(tryRead(path.join(witnessDir, 'record.jsonl'))).out, /EACCES/);
    assert.match(attacker(tryWrite(path.join(witnessDir, 'heads', 'T'))).out, /EACCES/);
    const ask = attacker(tryAsk(socket)).out;
    assert.match(ask, /EACCES/, ask);
    assert.doesNotMatch(ask, /ANSWERED/);
  });

  it("cannot read the kiosk's secrets or write its data folder", async () => {
    const dataDir = path.join(root, 'kiosk');
    const running = await startHost({
      dataDir,
      terminalId: 'modes',
      rendererDir: path.join(root, 'none'),
      logger: pino({ level: 'silent' }),
      simulatedDealer: false,
    });
    await running.close();
    const files = readdirSync(dataDir);
    assert.ok(files.includes('ledger.sqlite'), files.join(', '));
    assert.match(attacker(tryList(dataDir)).out, /EACCES/);
    for (const f of files) assert.match(attacker(tryRead(path.join(dataDir, f))).out, /EACCES|EISDIR/, f);
    assert.match(attacker(tryWrite(path.join(dataDir, 'peers.json'))).out, /EACCES/);
  });
});
