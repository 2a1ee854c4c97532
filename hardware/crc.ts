// The two CRC-16 variants of the devices we speak to (facts: docs/protocols/id003.md, ssp.md).

const KERMIT_TABLE = (() => {
  // CCITT polynomial 0x1021 processed bit-reflected (0x8408), as ID-003 specifies.
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    t[i] = c;
  }
  return t;
})();

/**
 * CRC-16/KERMIT: init 0, reflected, no final XOR. Check value of "123456789" is 0x2189. `seed`
 * replaces the initial 0: SAS's ROM signature (long poll 0x21) is this CRC seeded by the host.
 */
export function crc16Kermit(data: Uint8Array, from = 0, to = data.length, seed = 0): number {
  let crc = seed & 0xffff;
  for (let i = from; i < to; i++) crc = (crc >>> 8) ^ (KERMIT_TABLE[(crc ^ (data[i] ?? 0)) & 0xff] ?? 0);
  return crc & 0xffff;
}

const CMS_TABLE = (() => {
  // Polynomial 0x8005 MSB-first, as ITL SSP specifies.
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
    t[i] = c;
  }
  return t;
})();

/** CRC-16/CMS: poly 0x8005, init 0xFFFF, not reflected, no final XOR. Check value 0xAEE7. */
export function crc16Ssp(data: Uint8Array, from = 0, to = data.length): number {
  let crc = 0xffff;
  for (let i = from; i < to; i++) crc = ((crc << 8) ^ (CMS_TABLE[((crc >>> 8) ^ (data[i] ?? 0)) & 0xff] ?? 0)) & 0xffff;
  return crc;
}
