import { manageAccount } from './manage-account.js';

export function run(argv: string[]): Promise<number> {
  return manageAccount('unlock', 'unlock-user', argv);
}
