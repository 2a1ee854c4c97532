import { headStatement, statementSigned } from '../witness/statement.js';
import type { LedgerWitnessView } from './ledger.js';

/**
 * The journal against the newest head the witness signed: the journal must reach that entry and
 * hold, there, the hash the witness signed. Everything at or before it is then the chain the
 * witness saw, link by link; a journal rebuilt with the ledger's own code and every file of the
 * data folder (checkpoint key, head mark) has another hash there, and one that lost entries ends
 * before it. What the witness has not signed yet (the last commits before a kill) is not covered.
 * `hashAt`: the journal's hash of an entry (undefined when it holds none).
 */
export function witnessProblems(
  terminalId: string,
  head: { seq: number; hash: string },
  witness: LedgerWitnessView,
  hashAt: (seq: number) => string | undefined,
): { problems: string[]; checked: string } {
  const signed = witness.head;
  const by = `the witness (key ${witness.keyId}, ${witness.keyStore === 'tpm' ? 'sealed in a TPM' : 'a key file'}, at ${witness.address})`;
  if (signed === null) {
    return witness.firstUse || head.seq === 0
      ? { problems: [], checked: `${by}: holds no head of ${terminalId} yet (this start gives it the chain from genesis)` }
      : {
          problems: [
            `witness: ${by} holds no head of terminal ${terminalId}, whose journal has ${head.seq} entries: this is not the journal it witnessed (another terminal's, or its record was reset)`,
          ],
          checked: by,
        };
  }
  if (signed.terminal !== terminalId || !statementSigned(witness.publicKey, headStatement(signed), signed.signature)) {
    return { problems: [`witness: the head it gave does not carry its signature for terminal ${terminalId}`], checked: by };
  }
  if (head.seq < signed.seq) {
    return {
      problems: [
        `witness: the journal ends at entry ${head.seq}, but ${by} signed entry ${signed.seq} at ${signed.at}: witnessed entries are gone (a lost WAL, a deleted entry, an older copy)`,
      ],
      checked: by,
    };
  }
  if (hashAt(signed.seq) !== signed.hash) {
    return {
      problems: [
        `witness: entry ${signed.seq} of the journal is not the one ${by} signed at ${signed.at}: the journal was rewritten (re-forged with the ledger's own code, or edited)`,
      ],
      checked: by,
    };
  }
  return { problems: [], checked: `the journal against the head ${by} signed: entry ${signed.seq} at ${signed.at}` };
}
