import type { TiltClearance } from './tilt-kinds.js';

/**
 * The people who act on the floor. Service mode (issue 9) signs them in; the table host only
 * checks that the role named may do the act. An auditor reads and never acts.
 */
export type StaffRole = 'attendant' | 'technician' | 'supervisor' | 'auditor';

export interface Actor {
  user: string;
  role: StaffRole;
}

const RANK: Record<StaffRole, number> = { auditor: 0, attendant: 1, technician: 1, supervisor: 2 };
const NEEDS: Record<Exclude<TiltClearance, 'auto' | 'resolution'>, number> = { attendant: 1, supervisor: 2 };

/** Whether `role` may clear a fault that clears by `clears`; the automatic ones by nobody. */
export function mayClear(role: StaffRole, clears: TiltClearance): boolean {
  if (clears === 'auto' || clears === 'resolution') return false;
  return RANK[role] >= NEEDS[clears];
}
