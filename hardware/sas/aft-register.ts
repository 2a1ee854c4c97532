// AFT registration (SAS 6.02 §8, long poll 0x73 "AFT register gaming machine"; docs/sas.md, "AFT
// registration"): the casino's system registers the machine for AFT with a registration key and a
// point-of-sale id, after which a 0x72 that carries a key must carry that one (Table 8.3d: 88 not
// registered, 89 the key does not match). The machine side parses and encodes; the station (an
// injected `SasAftRegistrationSide`) decides and journals a change before the answer is sent.
//
// Request: address, 73, length (01 or 1D), registration code, then with length 1D the asset
// number (4 binary), the registration key (20 binary) and the POS id (4 binary; FFFFFFFF: no
// change). Codes: 00 initialise registration, 01 register, 40 request operator acknowledgement,
// 80 unregister, FF read the current registration; 80 and FF need only the code (length 01), the
// others the whole record. Answer: address, 73, length 1D, registration status (00 ready,
// 01 registered, 40 pending, 80 not registered), asset number, registration key, POS id, CRC.
// Binary fields least significant byte first (§2.2.3).

export const REGISTER_CODE = { initialise: 0x00, register: 0x01, requestAcknowledgement: 0x40, unregister: 0x80, read: 0xff } as const;
export const REGISTRATION_STATUS = { ready: 0x00, registered: 0x01, pending: 0x40, notRegistered: 0x80 } as const;

/** The lengths 0x73 may carry: the code alone, or the code and the whole record (1 + 4 + 20 + 4). */
const SHORT = 0x01;
const LONG = 0x1d;
export const KEY_BYTES = 20;

/** A 0x73 request the station decides. */
export type AftRegisterRequest =
  | { code: typeof REGISTER_CODE.unregister | typeof REGISTER_CODE.read }
  | {
      code: typeof REGISTER_CODE.initialise | typeof REGISTER_CODE.register | typeof REGISTER_CODE.requestAcknowledgement;
      assetNumber: number;
      /** 20 bytes. */
      key: Uint8Array;
      /** 0 no POS id; 0xFFFFFFFF no change. */
      posId: number;
    };

/** The registration 0x73 answers. */
export interface AftRegistrationView {
  /** REGISTRATION_STATUS. */
  status: number;
  assetNumber: number;
  /** 20 bytes (zeros: none). */
  key: Uint8Array;
  posId: number;
}

export interface SasAftRegistrationSide {
  /** A 0x73 request: decided, and journalled when it changes the registration, before the answer. */
  register(request: AftRegisterRequest): AftRegistrationView;
}

export type RegisterReply = { kind: 'payload'; payload: Uint8Array } | { kind: 'nack' } | { kind: 'ignore' };

const binary = (value: number, n: number): number[] => Array.from({ length: n }, (_, i) => Math.floor(value / 256 ** i) % 256);
const readBinary = (b: Uint8Array, from: number): number => Array.from({ length: 4 }, (_, i) => (b[from + i] ?? 0) * 256 ** i).reduce((a, x) => a + x, 0);

/**
 * 0x73 (the whole request, its CRC already checked). A length other than 01 or 1D, or one that is
 * not what the message carries, or a code that needs the record sent without it, is a malformed
 * message: ignored like one with a bad CRC (§4.4; our reading: the document names no NACK for it),
 * changing nothing. A registration code the document does not have is NACKed.
 */
export function aftRegisterPoll(bytes: Uint8Array, side: SasAftRegistrationSide): RegisterReply {
  const len = bytes[2] ?? 0;
  if ((len !== SHORT && len !== LONG) || bytes.length !== 3 + len + 2) return { kind: 'ignore' };
  const code = bytes[3] ?? 0;
  let view: AftRegistrationView;
  if (code === REGISTER_CODE.unregister || code === REGISTER_CODE.read) view = side.register({ code });
  else if (code === REGISTER_CODE.initialise || code === REGISTER_CODE.register || code === REGISTER_CODE.requestAcknowledgement) {
    if (len !== LONG) return { kind: 'ignore' };
    view = side.register({ code, assetNumber: readBinary(bytes, 4), key: bytes.slice(8, 8 + KEY_BYTES), posId: readBinary(bytes, 28) });
  } else return { kind: 'nack' };
  const key = view.key.length === KEY_BYTES ? [...view.key] : new Array<number>(KEY_BYTES).fill(0);
  return { kind: 'payload', payload: Uint8Array.from([LONG, view.status, ...binary(view.assetNumber, 4), ...key, ...binary(view.posId, 4)]) };
}
