import { readFileSync } from 'node:fs';

/** The version of package.json, read once at start (reported by /healthz and service mode). */
export const SOFTWARE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
