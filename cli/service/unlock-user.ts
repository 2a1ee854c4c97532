import { accountCommand, manageAccount } from './manage-account.js';

export const command = accountCommand('unlock', 'unlock-user');

export function run(argv: string[]): Promise<number> {
  return manageAccount('unlock', command, argv);
}
