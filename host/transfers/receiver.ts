import { keyOf, sameTerms, type TableId, type Transfer, type TransferId, type TransferRefusal } from '../../ledger/transfer-terms.js';
import { type TransferAlarmReason, type TransferEffects } from './effects.js';
import { incomingOf, type TransferState } from './state.js';

// The receiving side: an id is decided once, taken (the station credited) or refused for ever,
// journalled before the answer goes out; every later question about the id gets the same answer
// from the journal, whatever it claims.

function alarm(link: TableId, reason: TransferAlarmReason, id: TransferId, detail: string): TransferEffects {
  return { journal: [], send: [], alarms: [{ reason, link, id, detail }] };
}

/** What the journal says of an id, sent back over the link. */
function answer(state: TransferState, link: TableId, id: TransferId): TransferEffects | undefined {
  const i = incomingOf(state, id);
  if (!i) return undefined;
  const message = i.kind === 'taken' ? { kind: 'taken' as const, transfer: i.transfer } : { kind: 'refused' as const, id, reason: i.reason };
  return { journal: [], send: [{ to: link, message }], alarms: [] };
}

/** Only the sender may speak of its transfer: the id's origin is the link it came over. */
function fromItsSender(link: TableId, id: TransferId): boolean {
  return id.origin === link;
}

export function onOffer(state: TransferState, link: TableId, transfer: Transfer): TransferEffects {
  const id = transfer.id;
  if (!fromItsSender(link, id) || transfer.from !== link)
    return alarm(link, 'wrong-link', id, `${keyOf(id)} from ${transfer.from} offered over the link of ${link}`);
  if (transfer.to !== state.self) return alarm(link, 'not-for-us', id, `${keyOf(id)} is for ${transfer.to}`);
  const known = answer(state, link, id);
  if (known) {
    const i = incomingOf(state, id);
    if (i?.kind === 'taken' && !sameTerms(i.transfer, transfer))
      return {
        ...known,
        alarms: [{ reason: 'terms-changed', link, id, detail: `${keyOf(id)} offered again for ${transfer.amount}; taken for ${i.transfer.amount}` }],
      };
    return known;
  }
  const refusal: TransferRefusal | undefined = transfer.currency !== state.currency ? 'wrong-currency' : undefined;
  if (refusal)
    return {
      journal: [{ type: 'transfer.refuse', payload: { id, reason: refusal, offered: transfer } }],
      send: [{ to: link, message: { kind: 'refused', id, reason: refusal } }],
      alarms: [],
    };
  return { journal: [{ type: 'transfer.in', payload: { transfer } }], send: [{ to: link, message: { kind: 'taken', transfer } }], alarms: [] };
}

export function onRecall(state: TransferState, link: TableId, id: TransferId): TransferEffects {
  if (!fromItsSender(link, id)) return alarm(link, 'wrong-link', id, `a recall of ${keyOf(id)} over the link of ${link}`);
  return (
    answer(state, link, id) ?? {
      journal: [{ type: 'transfer.refuse', payload: { id, reason: 'recalled' } }],
      send: [{ to: link, message: { kind: 'refused', id, reason: 'recalled' } }],
      alarms: [],
    }
  );
}
