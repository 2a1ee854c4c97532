export * from './limits.js';
export * from './views.js';
export * from './messages.js';
export * from './codec.js';
export * from './preload-api.js';
export * from './utility-messages.js';
export * from './round.js';
export * from './refusals.js';
