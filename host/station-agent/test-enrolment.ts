import type { EnrolmentFile } from '../stadium/enrolment-file.js';

/** A station agent's enrolment for a test that never dials it (the station's number its own). */
export function agentEnrolment(station: number): EnrolmentFile {
  return {
    v: 1,
    tableId: 'T-1',
    station,
    secret: 's'.repeat(43),
    host: 'https://127.0.0.1:1',
    certificate: 'c'.repeat(100),
    fingerprint: Array.from({ length: 32 }, () => 'AB').join(':'),
  };
}
