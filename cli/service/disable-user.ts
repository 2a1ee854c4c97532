import { manageAccount } from './manage-account.js';

export function run(argv: string[]): Promise<number> {
  return manageAccount('disable', 'disable-user', argv);
}
