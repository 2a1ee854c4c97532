// The station credit limit's bound (SAS 0x1A's 8 digits of minor units) is defined once for the
// hosts and the upstream (terms/), and copied where a build cannot import terms/: the service
// screen's editor and the back office's proposal form. Each copy only spares a person a refusal;
// a copy that drifted would refuse a limit the host takes, or offer one it refuses.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CREDIT_LIMIT_MAX as backOffice } from '../../backoffice/src/config-section.js';
import { CREDIT_LIMIT_MAX as serviceScreen } from '../../renderer/src/screens/service/config-editor.js';
import { CREDIT_LIMIT_MAX } from '../../terms/config-order-terms.js';

it('the service screen and the back office bound the credit limit where the host does', () => {
  assert.equal(serviceScreen, CREDIT_LIMIT_MAX);
  assert.equal(backOffice, CREDIT_LIMIT_MAX);
});
