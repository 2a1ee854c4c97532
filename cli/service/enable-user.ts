import { manageAccount } from './manage-account.js';

export function run(argv: string[]): Promise<number> {
  return manageAccount('enable', 'enable-user', argv);
}
