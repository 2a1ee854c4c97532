// Public entry point of hardware/: what the table host, the CLI and tests use.
//
//   const ba = openBillAcceptor('sim' | 'usb:0403:6001' | 'tcp:10.0.0.5:4001' | 'serial:/dev/ttyS0', {
//     protocol: 'id003', currency: 'HKD', accept: [100, 500, 1000],
//     onEscrow: async (note) => { await journal.escrow(note); return 'stack'; },
//     onCredit: async (credit) => { await journal.credit(credit); },   // ACK follows
//   });
//   ba.on((e) => …); ba.enable();
//   ba.simulator?.insertNote(100);                                       // `sim` spec only
//
//   const shoe = openShoe('sim', { protocol: 'framed', onEvent: async (e) => journal.shoe(e) });
//   shoe.simulator?.loadShoe(); shoe.simulator?.drawCard();
//
//   const printer = openPrinter('sim' | 'serial:/dev/ttyS1' | …, {});
//   const out = await printer.print({ ticket, onSend: (attempt) => journal.ticketSent(attempt) });
//   out.outcome: 'printed' | 'not-printed' | 'unknown';  printer.resolve(attempt) after a restart.
//
// Events, options and guarantees: billacceptor/types.ts, shoe/types.ts, docs/protocols/*.md.

export { openBillAcceptor, openPrinter, openShoe, openerFor } from './open.js';
export type { BillProtocol, OpenOptions, OpenedBillAcceptor, OpenedPrinter, OpenedShoe, ShoeProtocol, SimCable } from './open.js';

export type { BillAcceptor, BillAcceptorEvent, BillAcceptorOptions, Credit, EscrowDecision, EscrowedNote, EscrowedTicket, Note } from './billacceptor/types.js';
export { NOTE_FACE_VALUES, MINOR_PER_UNIT, isCurrency, minorUnits, type Currency } from './billacceptor/notes.js';
export type { BillAcceptorSimControls, BillStep, TicketLies, WireFault } from './billacceptor/sim-controls.js';
export { isValidationNumber } from './validation-number.js';
export { Id003BillAcceptor } from './billacceptor/id003/driver.js';
export { Id003Simulator, type Id003SimOptions } from './billacceptor/id003/simulator.js';
export { SspBillAcceptor, type SspOptions } from './billacceptor/ssp/driver.js';
export { SspSimulator, type SspSimOptions } from './billacceptor/ssp/simulator.js';

export type { SequencedShoeEvent, ShoeDevice, ShoeEvent, ShoeOptions, ShoeSimControls } from './shoe/types.js';
export { RANKS, SUITS, isCardCode, parseVendorCard, type CardCode, type Rank, type Suit } from './shoe/card-code.js';
export { FramedShoe } from './shoe/framed-driver.js';
export { AsciiShoe } from './shoe/ascii.js';
export { ShoeSimulator, shuffledShoe, type ShoeSimOptions } from './shoe/simulator.js';

export { TclPrinter } from './printer/driver.js';
export { TclPrinterSimulator, type PaperTicket, type PrinterSimOptions, type PrinterStep } from './printer/simulator.js';
export { PRINTER_LIES, type PrinterLie } from './printer/lies.js';
export type { PrintOutcome, PrintRequest, PrinterEvent, PrinterOptions, PrinterViolation, TicketPrinter } from './printer/types.js';
export type { PrintAttempt, PrintEvidence, NotPrintedReason, UnknownReason } from './printer/judge.js';
export type { PrinterCondition, PrinterFault } from './printer/condition.js';
export { TicketData, TicketLabels, ValidationNumber, formatAmountFigures, formatValidationNumber } from './printer/ticket.js';

export { EventRecorder } from './sim/recorder.js';
export { serveDevice, type DeviceServer } from './sim/tcp-server.js';
export { runBillCommand, runShoeCommand, BILL_COMMANDS, SHOE_COMMANDS } from './sim/commands.js';
export type { DeviceSide } from './sim/device-side.js';

export { parseSpec, formatSpec, type DeviceSpec } from './transport/spec.js';
export type { BytePort, LineSettings, PortOpener } from './transport/byte-port.js';
export { LINE_8E1_9600, LINE_8N1_9600, LINE_8N2_9600 } from './transport/byte-port.js';
export type { UsbBusLike, UsbDeviceLike } from './transport/usb-types.js';
export { FakeUsbBus, FakeUsbDevice } from './transport/fake-usb.js';
export { UsbSerialPort, KNOWN_BRIDGES, bridgeDriverFor } from './transport/usb-serial.js';
export { nodeUsbBus } from './transport/node-usb.js';
export { TcpPort } from './transport/tcp.js';
export { realClock, type Clock } from './clock.js';
