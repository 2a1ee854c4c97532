import { accountCommand, manageAccount } from './manage-account.js';

export const command = accountCommand('reset-pin', 'reset-pin');

export function run(argv: string[]): Promise<number> {
  return manageAccount('reset-pin', command, argv);
}
