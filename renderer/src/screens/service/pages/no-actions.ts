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
