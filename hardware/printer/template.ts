// The cash-out ticket's layout in TCL: print regions (`^R|…|^`) and the template that lists them
// (`^T|…|^`), defined in the printer's RAM at every session, and the print command (`^P|…|^`) that
// fills them. The same layout is defined under three template ids, and each ticket takes one the
// printer did not name last: the `P<t>` field of the status (the last template printed) then says
// which job the printer finished last, the only trace of a job the status carries. The third lets
// a ticket also avoid the template of a job sent and never confirmed printed, which a printer could
// still be holding (docs/protocols/tcl.md, "Which ticket was printed").
import { encodeCommand } from './tcl.js';
import { formatAmountFigures, formatValidationNumber, type TicketData } from './ticket.js';

/** The template ids a ticket rotates through. */
export const TEMPLATE_IDS = ['A', 'B', 'C'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/**
 * The template for the next ticket: the first after `last` in rotation that is neither `last` nor
 * one of `avoid` (jobs sent and never confirmed printed); null when every one is excluded.
 */
export function nextTemplate(last: string, avoid: ReadonlySet<string> = new Set()): TemplateId | null {
  const from = TEMPLATE_IDS.findIndex((id) => id === last) + 1;
  for (let i = 0; i < TEMPLATE_IDS.length; i++) {
    const id = TEMPLATE_IDS[(from + i) % TEMPLATE_IDS.length];
    if (id !== undefined && id !== last && !avoid.has(id)) return id;
  }
  return null;
}

/** TCL's object id of an Interleaved 2 of 5 barcode region (Aristocrat's TclProtocolConstants). */
export const BARCODE_I2OF5 = 'l';

export interface Region {
  id: string;
  /** Origin and size in dots (8 dots/mm); the printable area is 512 × 1100 dots (Aristocrat's Jcm.cs). */
  x: number;
  y: number;
  w: number;
  h: number;
  /** 0 right, 1 down, 2 left, 3 up (print direction). */
  rotation: 0 | 1 | 2 | 3;
  /** 0 left, 1 centre, 2 right. */
  justify: 0 | 1 | 2;
  /** A font number, or `l` for the I2of5 barcode. */
  object: string;
  m1: number;
  m2: number;
  attribute: number;
}

export interface LayoutOptions {
  /** Font number of the printer's font with the Chinese characters (installed with its firmware). */
  cjkFont?: string;
  /** Font number for Latin text. */
  latinFont?: string;
}

export const TEMPLATE_WIDTH = 512;
export const TEMPLATE_LENGTH = 1100;

/** The regions in the order the print command's fields fill them. */
export function regions(o: LayoutOptions = {}): Region[] {
  const cjk = o.cjkFont ?? '7';
  const latin = o.latinFont ?? '3';
  const row = (id: string, y: number, h: number, object: string, justify: 0 | 1 | 2 = 0): Region => ({
    id,
    x: 20,
    y,
    w: 470,
    h,
    rotation: 0,
    justify,
    object,
    m1: 1,
    m2: 1,
    attribute: 0,
  });
  return [
    row('a', 20, 60, cjk, 1), // title (zh / pt)
    row('b', 90, 40, latin, 1), // validation number in digits, with its label
    { ...row('c', 135, 140, BARCODE_I2OF5, 1), m1: 2, m2: 5 }, // the barcode: narrow 2 dots, wide 5
    row('d', 285, 60, latin, 1), // amount in figures
    row('e', 350, 50, cjk), // amount in words, Chinese
    row('f', 405, 80, latin), // amount in words, Portuguese
    row('g', 490, 40, cjk), // table and station
    row('h', 535, 40, cjk), // date and time
    row('i', 580, 40, cjk), // ticket number
    row('j', 625, 40, cjk), // expiry
  ];
}

/** `^R|<id>|R|<x>|<y>|<w>|<h>||<rot>|<just>|<object>|<m1>|<m2>|<attr>|0||^`: a region in RAM, its data from the print command. */
export function regionCommand(r: Region): Uint8Array {
  return encodeCommand('R', [
    r.id,
    'R',
    `${r.x}`,
    `${r.y}`,
    `${r.w}`,
    `${r.h}`,
    '',
    `${r.rotation}`,
    `${r.justify}`,
    r.object,
    `${r.m1}`,
    `${r.m2}`,
    `${r.attribute}`,
    '0',
    '',
  ]);
}

/** `^T|<id>|R|<width>|<length>|<region ids…>|^`. */
export function templateCommand(id: TemplateId, rs: readonly Region[]): Uint8Array {
  return encodeCommand('T', [id, 'R', `${TEMPLATE_WIDTH}`, `${TEMPLATE_LENGTH}`, ...rs.map((r) => r.id)]);
}

/** Every command that defines the layout, in order (after `^R|$|DR|^` cleared the old ones). */
export function layoutCommands(o: LayoutOptions = {}): Uint8Array[] {
  const rs = regions(o);
  return [...rs.map(regionCommand), ...TEMPLATE_IDS.map((id) => templateCommand(id, rs))];
}

/** The text of each region for a ticket, in region order. */
export function ticketFields(t: TicketData): string[] {
  const l = t.labels;
  return [
    l.title,
    `${l.validation} ${formatValidationNumber(t.validationNumber)}`,
    t.validationNumber,
    formatAmountFigures(t.amount.minor, t.amount.currency),
    t.amountInWords.zh,
    t.amountInWords.pt,
    `${l.table} ${t.table}  ${l.station} ${t.station}`,
    `${l.issued} ${t.issuedAt}`,
    `${l.ticketNumber} ${String(t.ticketNumber).padStart(4, '0')}`,
    `${l.expires} ${t.expiresOn}`,
  ];
}

/** `^P|<template>|1|<field>|…|^`: one copy of the ticket on the given template. */
export function printCommand(template: TemplateId, t: TicketData): Uint8Array {
  return encodeCommand('P', [template, '1', ...ticketFields(t)]);
}
