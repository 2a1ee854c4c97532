// A station's AFT registration (SAS 6.02 §8, 0x73; docs/sas.md, "AFT registration") against a real
// ledger file: each change journalled before its answer and read back after a reopen (a restart),
// the transitions of our reading, what changes nothing, the key check 0x72 asks, a registration
// for another asset number, an append that fails, and the exceptions each entry raises (6C, 6D, 6E).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { aftRegisterPoll, REGISTER_CODE, REGISTRATION_STATUS, type AftRegisterRequest } from '../../hardware/sas/aft-register.js';
import { entryCount, Ledger, newestEntriesOfType } from '../../ledger/index.js';
import { newestAftRegistration } from '../../ledger/aft-queries.js';
import { exceptionsOf } from './sas-exceptions.js';
import { AFT_REGISTRATIONS_BURST, AFT_REGISTRATIONS_EVERY_MS, StationAftRegistration } from './sas-aft-register.js';

const STATION = 2;
const ASSET = 4_000_000_001;
const KEY = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const OTHER_KEY = Uint8Array.from({ length: 20 }, (_, i) => 40 - i);
const ZEROS = new Uint8Array(20);
const facts = { betBefore: () => false, roundStations: () => [], runBefore: () => false };

describe('AFT registration at a station: journalled, read back, checked', () => {
  let dir: string;
  let file: string;
  let ledger: Ledger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-aft-reg-'));
    file = path.join(dir, 'ledger.sqlite');
    ledger = Ledger.open({ file, terminalId: 'T-REG' });
  });
  afterEach(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const reg = (assetNumber = ASSET) => new StationAftRegistration({ ledger, station: STATION, assetNumber });
  const full = (code: 0x00 | 0x01 | 0x40, key = KEY, posId = 9, assetNumber = ASSET): AftRegisterRequest => ({ code, assetNumber, key, posId });
  const count = (): number => entryCount(ledger, ['aft.register']);
  const excOfNewest = (): number[] => {
    const e = newestEntriesOfType(ledger, 'aft.register', 1)[0];
    assert.ok(e);
    const body: unknown = JSON.parse(e.body);
    assert.ok(typeof body === 'object' && body !== null && 'payload' in body);
    return exceptionsOf({ seq: e.seq, type: 'aft.register', payload: body.payload }, STATION, facts);
  };

  it('initialise then register: two entries, each before its answer; the registration survives a reopen; the key is checked', () => {
    assert.equal(reg().register(full(REGISTER_CODE.initialise, ZEROS, 0)).status, REGISTRATION_STATUS.ready);
    assert.equal(count(), 1);
    const v = reg().register(full(REGISTER_CODE.register));
    assert.deepEqual([v.status, [...v.key], v.posId, v.assetNumber], [REGISTRATION_STATUS.registered, [...KEY], 9, ASSET]);
    assert.deepEqual(excOfNewest(), [], 'registering raises nothing');
    ledger.close();
    ledger = Ledger.open({ file, terminalId: 'T-REG' });
    const after = reg().register({ code: REGISTER_CODE.read });
    assert.deepEqual([after.status, [...after.key], after.posId], [REGISTRATION_STATUS.registered, [...KEY], 9]);
    assert.equal(reg().check(KEY), 'ok');
    assert.equal(reg().check(OTHER_KEY), 'mismatch');
    assert.equal(count(), 2, 'a read journals nothing');
  });

  it('changes nothing: register without initialise, another asset, a key of zeros, a register while registered, unregister while not registered', () => {
    assert.equal(reg().register(full(REGISTER_CODE.register)).status, REGISTRATION_STATUS.notRegistered);
    assert.equal(reg().register(full(REGISTER_CODE.initialise, ZEROS, 0, ASSET + 1)).status, REGISTRATION_STATUS.notRegistered);
    assert.equal(reg().register({ code: REGISTER_CODE.unregister }).status, REGISTRATION_STATUS.notRegistered);
    assert.equal(count(), 0);
    reg().register(full(REGISTER_CODE.initialise, ZEROS, 0));
    assert.equal(reg().register(full(REGISTER_CODE.register, ZEROS)).status, REGISTRATION_STATUS.ready, 'zeros register nothing');
    reg().register(full(REGISTER_CODE.register));
    const again = reg().register(full(REGISTER_CODE.register, OTHER_KEY));
    assert.deepEqual([again.status, [...again.key]], [REGISTRATION_STATUS.registered, [...KEY]], 'a new key needs an initialise first');
    assert.equal(reg().register(full(REGISTER_CODE.initialise, ZEROS, 0)).status, REGISTRATION_STATUS.ready, 'initialise ends the registration');
    assert.equal(reg().check(KEY), 'not-registered');
    assert.equal(count(), 3);
  });

  it('a POS id of FFFFFFFF keeps the one held; a registration journalled for another asset number is none after the configuration changed', () => {
    reg().register(full(REGISTER_CODE.initialise, ZEROS, 0));
    assert.equal(reg().register(full(REGISTER_CODE.register, KEY, 0xff_ff_ff_ff)).posId, 0);
    assert.equal(reg().check(KEY), 'ok');
    assert.equal(reg(ASSET - 1).check(KEY), 'not-registered');
    assert.equal(reg(ASSET - 1).register({ code: REGISTER_CODE.read }).status, REGISTRATION_STATUS.notRegistered);
  });

  it('unregister ends it (6E); the operator: a request (6C), an acknowledgement (6D), a cancel (6E); nothing without a pending one', () => {
    reg().register(full(REGISTER_CODE.initialise, ZEROS, 0));
    reg().register(full(REGISTER_CODE.register));
    reg().register({ code: REGISTER_CODE.unregister });
    assert.deepEqual(excOfNewest(), [0x6e]);
    assert.equal(reg().operatorAnswer(true, 'att'), false, 'nothing pending');
    assert.equal(reg().operatorRequest('att'), true);
    assert.deepEqual(excOfNewest(), [0x6c]);
    reg().register(full(REGISTER_CODE.initialise, ZEROS, 0));
    assert.equal(reg().register(full(REGISTER_CODE.requestAcknowledgement)).status, REGISTRATION_STATUS.pending);
    assert.equal(reg().operatorRequest('att'), false, 'not while one is pending');
    assert.equal(reg().operatorAnswer(true, 'att'), true);
    assert.deepEqual(excOfNewest(), [0x6d]);
    assert.equal(reg().register({ code: REGISTER_CODE.read }).status, REGISTRATION_STATUS.ready);
    reg().register(full(REGISTER_CODE.requestAcknowledgement));
    assert.equal(reg().operatorAnswer(false, 'att'), true);
    assert.deepEqual(excOfNewest(), [0x6e]);
    assert.equal(reg().register({ code: REGISTER_CODE.read }).status, REGISTRATION_STATUS.notRegistered);
    assert.deepEqual(
      exceptionsOf({ seq: 1, type: 'aft.register', payload: { station: 1 } }, STATION, facts),
      [],
      'a payload that does not parse raises nothing',
    );
  });

  it('an append that fails is not answered: the machine side gets the throw (it answers nothing) and nothing changed', () => {
    const poll = Uint8Array.from([1, 0x73, 0x1d, REGISTER_CODE.initialise, 0x01, 0x28, 0x6b, 0xee, ...ZEROS, 0, 0, 0, 0, 0, 0]);
    const side = reg();
    ledger.append = () => {
      throw new Error('disk full');
    };
    assert.throws(() => aftRegisterPoll(poll, side), /disk full/);
    assert.equal(count(), 0);
  });

  it('changes from 0x73 are rationed: past the burst one is not taken (answered as the registration stands, nothing journalled) until time gives another', () => {
    let now = 0;
    const side = new StationAftRegistration({ ledger, station: STATION, assetNumber: ASSET, now: () => now });
    const statuses: number[] = [];
    // A system (or anyone on the line) alternating initialise and unregister: each taken one is a journal entry.
    for (let i = 0; i < 40; i++)
      statuses.push(side.register(i % 2 === 0 ? full(REGISTER_CODE.initialise, ZEROS, 0) : { code: REGISTER_CODE.unregister }).status);
    assert.equal(count(), AFT_REGISTRATIONS_BURST, `at most ${AFT_REGISTRATIONS_BURST} journalled (before: 40)`);
    const after = statuses.slice(AFT_REGISTRATIONS_BURST);
    assert.ok(
      after.every((s) => s === REGISTRATION_STATUS.notRegistered),
      'a change not taken reports the registration as it stands',
    );
    assert.equal(side.register({ code: REGISTER_CODE.read }).status, REGISTRATION_STATUS.notRegistered, 'a read costs nothing');
    now += AFT_REGISTRATIONS_EVERY_MS;
    assert.equal(side.register(full(REGISTER_CODE.initialise, ZEROS, 0)).status, REGISTRATION_STATUS.ready, 'taken once time gave one back');
    assert.equal(count(), AFT_REGISTRATIONS_BURST + 1);
    assert.equal(reg().register({ code: REGISTER_CODE.read }).status, REGISTRATION_STATUS.ready, 'the journal says the same after a restart');
  });

  it('the registration is read from the journal once, then kept as each change is journalled, by this station or another writer', () => {
    let lookups = 0;
    const newest: typeof newestAftRegistration = (l, station) => {
      lookups++;
      return newestAftRegistration(l, station);
    };
    const counted = () => new StationAftRegistration({ ledger, station: STATION, assetNumber: ASSET, newest });
    const side = counted();
    side.register(full(REGISTER_CODE.initialise, ZEROS, 0));
    // What each 0x74 poll asks (AFT status bit 3) and each 0x72 with a key.
    for (let i = 0; i < 100; i++) assert.equal(side.registered(), false);
    assert.equal(side.check(KEY), 'not-registered');
    side.register(full(REGISTER_CODE.register));
    assert.equal(side.registered(), true);
    assert.equal(side.check(KEY), 'ok');
    // The operator's side journals through its own instance: this one follows the journal.
    side.register(full(REGISTER_CODE.initialise, ZEROS, 0));
    side.register(full(REGISTER_CODE.requestAcknowledgement));
    assert.equal(counted().operatorAnswer(true, 'op-1'), true);
    assert.equal(side.register({ code: REGISTER_CODE.read }).status, REGISTRATION_STATUS.ready);
    assert.equal(lookups, 2, "two lookups: each instance's at its construction, this one's and the operator's (before: one per call)");
  });
});
