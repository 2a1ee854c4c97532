import { accountCommand, manageAccount } from './manage-account.js';

export const command = accountCommand('enable', 'enable-user');

export function run(argv: string[]): Promise<number> {
  return manageAccount('enable', command, argv);
}
