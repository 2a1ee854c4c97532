import pkg from '../package.json' with { type: 'json' };

/** The version of package.json (reported by /healthz and service mode); bundled, so it also holds inside Electron. */
export const SOFTWARE_VERSION: string = pkg.version;
