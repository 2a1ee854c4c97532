// The audit log's actions are written twice: the upstream's list (upstream/backoffice/audit.ts), the
// filter's whole vocabulary, which refuses any other; and the page's (backoffice/src/audit-page.ts),
// whose build cannot import the upstream's. An action added to one alone is a filter the page
// cannot offer (the inspector never finds those rows by kind) or one the upstream answers 400.
// Nothing else held the two in step (duplicates --change, 7 December).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AUDIT_ACTIONS as OFFERED } from '../../backoffice/src/audit-page.js';
import { AUDIT_ACTIONS as WRITTEN } from '../../upstream/backoffice/audit.js';

it("the page offers exactly the actions the upstream writes and its filter takes, in the upstream's order", () => {
  assert.deepEqual([...OFFERED], [...WRITTEN]);
});
