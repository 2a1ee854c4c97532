import { accountCommand, manageAccount } from './manage-account.js';

export const command = accountCommand('disable', 'disable-user');

export function run(argv: string[]): Promise<number> {
  return manageAccount('disable', command, argv);
}
