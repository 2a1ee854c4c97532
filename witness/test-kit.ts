import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { WitnessKey } from './keys.js';

/** A new Ed25519 witness key, held in memory as a key file's would be. */
export function testKey(): WitnessKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKey, store: 'file' };
}

/** A function naming a new folder (not yet made) under one temporary root, removed after the file's tests. */
export function freshDirs(prefix: string): () => string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  return () => path.join(root, `w${++n}`);
}
