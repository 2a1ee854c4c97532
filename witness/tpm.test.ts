// The witness's key sealed in a TPM 2.0, against Debian's swtpm (a software TPM speaking the TPM's
// own command set) through tpm2-tools, as the cabinet's /dev/tpmrm0 would be: the key is made and
// sealed at the first start and only the sealed blob is kept; the next start unseals the same key;
// the blob opens on no other TPM, and with PCRs bound not after they change. scripts/check-system.ts
// installs swtpm and tpm2-tools for `npm test`.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadKey } from './keys.js';
import { SEALED_PRIV, SEALED_PUB, TpmError } from './tpm.js';

const root = mkdtempSync(path.join(tmpdir(), 'witness-tpm-'));
const tpms: ChildProcess[] = [];
after(() => {
  for (const t of tpms) t.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
});

function need(tool: string, pkg: string): void {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (r.error) throw new Error(`${tool} is missing (Debian package ${pkg}; scripts/check-system.ts installs it): ${r.error.message}`);
}

/** Whether a port on loopback is free now. */
function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Two free ports in a row: the swtpm TCTI reaches the control channel at the command port + 1. */
async function freePorts(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000) * 2;
    if ((await free(port)) && (await free(port + 1))) return port;
  }
}

/** A fresh software TPM (its own seeds: another machine's TPM as far as sealing goes); its TCTI. */
async function softwareTpm(name: string): Promise<string> {
  const state = path.join(root, name);
  mkdirSync(state);
  const port = await freePorts();
  const ctrl = port + 1;
  const p = spawn(
    'swtpm',
    [
      'socket',
      '--tpm2',
      '--tpmstate',
      `dir=${state}`,
      '--server',
      `type=tcp,port=${port},bindaddr=127.0.0.1`,
      '--ctrl',
      `type=tcp,port=${ctrl},bindaddr=127.0.0.1`,
      '--flags',
      'not-need-init,startup-clear',
    ],
    { stdio: 'ignore' },
  );
  tpms.push(p);
  // Up when its port answers.
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return `swtpm:host=127.0.0.1,port=${port}`;
}

const publicDer = (k: ReturnType<typeof loadKey>) => createPublicKey(k.privateKey).export({ format: 'der', type: 'spki' }).toString('base64');

describe("the witness's key sealed in a TPM 2.0 (swtpm, tpm2-tools)", { timeout: 120_000 }, () => {
  need('swtpm', 'swtpm');
  need('tpm2_createprimary', 'tpm2-tools');

  it('seals a new key at the first start, keeps only the sealed blob, and unseals the same key at the next', async () => {
    const tcti = await softwareTpm('a');
    const dir = path.join(root, 'witness-a');
    mkdirSync(dir);
    const first = loadKey({ kind: 'tpm', dir, tcti });
    assert.equal(first.store, 'tpm');
    assert.equal(first.privateKey.asymmetricKeyType, 'ed25519');
    // On disk: the TPM's blob only, which is no key without that TPM.
    assert.deepEqual(readdirSync(dir).sort(), [SEALED_PRIV, SEALED_PUB].sort());
    const again = loadKey({ kind: 'tpm', dir, tcti });
    assert.equal(publicDer(again), publicDer(first), 'the same key, unsealed');

    // Copied to another machine (another TPM, its own seeds): the blob does not open.
    const other = await softwareTpm('b');
    const copy = path.join(root, 'witness-copy');
    mkdirSync(copy);
    for (const f of [SEALED_PUB, SEALED_PRIV]) copyFileSync(path.join(dir, f), path.join(copy, f));
    assert.throws(() => loadKey({ kind: 'tpm', dir: copy, tcti: other }), TpmError);
  });

  it("seals at the first start under systemd's PrivateTmp (the temp folder on another mount than the witness's): the blob moved within its folder, not across (EXDEV)", async () => {
    // etg-witness.service has PrivateTmp=yes: /tmp is its own mount, and a rename from it into
    // /var/lib/etg-witness fails with EXDEV. Here TMPDIR on /dev/shm (tmpfs) and the folder on the disk.
    const shm = mkdtempSync(path.join('/dev/shm', 'witness-tpm-tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = shm;
    try {
      assert.notEqual(statSync(shm).dev, statSync(root).dev, 'the temp folder is on another mount than the witness folder');
      const tcti = await softwareTpm('x');
      const dir = path.join(root, 'witness-x');
      mkdirSync(dir);
      const first = loadKey({ kind: 'tpm', dir, tcti });
      assert.equal(first.store, 'tpm');
      assert.deepEqual(readdirSync(dir).sort(), [SEALED_PRIV, SEALED_PUB].sort(), 'its work folder gone from the witness folder');
      assert.deepEqual(readdirSync(shm), [], 'nothing left in the temp folder');
      assert.equal(publicDer(loadKey({ kind: 'tpm', dir, tcti })), publicDer(first));
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(shm, { recursive: true, force: true });
    }
  });

  it('bound to PCR 7: unsealed while the PCR holds its value, refused once it changed (another boot chain)', async () => {
    const tcti = await softwareTpm('c');
    const dir = path.join(root, 'witness-c');
    mkdirSync(dir);
    const sealed = loadKey({ kind: 'tpm', dir, tcti, pcrs: 'sha256:7' });
    assert.equal(publicDer(loadKey({ kind: 'tpm', dir, tcti, pcrs: 'sha256:7' })), publicDer(sealed));
    const extend = spawnSync('tpm2_pcrextend', [`7:sha256=${'00'.repeat(31)}01`], { env: { ...process.env, TPM2TOOLS_TCTI: tcti }, encoding: 'utf8' });
    assert.equal(extend.status, 0, extend.stderr);
    assert.throws(() => loadKey({ kind: 'tpm', dir, tcti, pcrs: 'sha256:7' }), /policy check failed|tpm2_unseal failed/);
    // Without the policy (someone asking with an empty password) it does not open either.
    assert.throws(() => loadKey({ kind: 'tpm', dir, tcti }), TpmError);
  });
});
