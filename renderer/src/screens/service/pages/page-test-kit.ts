// What the service page tests share: actions that do nothing, and a signed-in service state read
// through the protocol's own schema (a literal cast to ServiceState hid a field it lacked).
import { ServiceState } from '../../../../../protocol/index.js';
import type { PageActions } from './choices.js';

/** A page's actions that do nothing: the tests that read what a page says, not what it does. */
export const NO_ACTIONS: PageActions = {
  act: () => undefined,
  open: () => undefined,
  download: () => undefined,
  upload: () => undefined,
  view: () => undefined,
  replay: () => undefined,
  ask: () => undefined,
  choose: () => undefined,
};

type Role = NonNullable<ServiceState['session']>['role'];

/** Service mode at table T, signed in by one person in one role, in a language. */
export function signedInService(language: string, role: Role, person: { name: string; staff: string }): ServiceState {
  return ServiceState.parse({
    kind: 'service',
    tableId: 'T',
    softwareVersion: '1',
    language,
    signedIn: true,
    session: { ...person, role, currency: 'MOP', idleEndsAt: 0, exportToken: 'x'.repeat(16) },
  });
}
