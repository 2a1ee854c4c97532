// The command-line tools made of subcommands, and which subcommands each has: the help lists
// these, the dispatcher refuses any other name, and cli/help.test.ts checks every one answers --help.
import type { Tool } from './subcommand.js';

export const TOOLS = {
  sim: {
    name: 'sim',
    summary: 'Simulators and exact calculators of the games.',
    pick: '<game>',
    subcommands: ['blackjack', 'blackjack-sidebets', 'baccarat', 'war'],
    load: (name) => import(`./sim/${name}.ts`),
  },
  round: {
    name: 'round',
    summary: 'Plays one scripted round from its cards and decisions (disputes, inspectors; exit 2 on any inconsistency).',
    pick: '--game <game>',
    subcommands: ['blackjack', 'baccarat', 'war'],
    load: (name) => import(`./round/${name}.ts`),
  },
  devices: {
    name: 'devices',
    summary: 'Tools for technicians and test rigs: the devices seen, a device driven as the host would, simulators.',
    pick: '<command>',
    subcommands: ['list', 'monitor', 'simulate'],
    load: (name) => import(`./devices/${name}.ts`),
  },
  ledger: {
    name: 'ledger',
    summary: "The kiosk ledger's tools.",
    pick: '<command>',
    subcommands: ['verify', 'export', 'evidence', 'recall', 'meters', 'status', 'sync', 'backup', 'demo'],
    load: (name) => import(`./ledger/${name}.ts`),
  },
  service: {
    name: 'service',
    summary: "Service mode's accounts, and the reference hash of a build.",
    pick: '<command>',
    subcommands: ['add-user', 'list-users', 'disable-user', 'enable-user', 'unlock-user', 'reset-pin', 'program-hash'],
    load: (name) => import(`./service/${name}.ts`),
  },
  upstream: {
    name: 'upstream',
    summary: 'The upstream service (options first means serve) and its tools.',
    pick: '<command>',
    subcommands: ['serve', 'enroll', 'verify', 'revoke'],
    load: (name) => import(`./upstream/${name}.ts`),
  },
} as const satisfies Record<string, Tool>;
