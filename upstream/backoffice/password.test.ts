import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, SCRYPT, verifyPassword } from './password.js';

describe('back-office passwords', () => {
  it('are hashed with scrypt at the stated parameters, salted, and checked', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    assert.match(a, new RegExp(`^scrypt\\$${SCRYPT.N}\\$${SCRYPT.r}\\$${SCRYPT.p}\\$`));
    assert.notEqual(a, b, 'each hash has its own salt');
    assert.equal(await verifyPassword('correct horse battery', a), true);
    assert.equal(await verifyPassword('correct horse batterY', a), false);
    assert.equal(await verifyPassword('correct horse battery', 'plain text'), false);
  });
});
