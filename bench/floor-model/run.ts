// npm run floor-model [-- --tables N,… --stations N,… --coup-seconds S --per-machine N --edge N --coups N --seed N --inputs FILE.json]
// A grid of floors, each simulated from the measured inputs (bench/floor-model/inputs.ts), with
// the limit each meets first. docs/stadium.md, "Beyond one host", reads it.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FloorInputs, MEASURED } from './inputs.js';
import { simulateFloor, type Scenario } from './simulate.js';

const { values } = parseArgs({
  options: {
    tables: { type: 'string', default: '1,20,100' },
    stations: { type: 'string', default: '250,500,1000' },
    'coup-seconds': { type: 'string', default: '5,30' },
    'per-machine': { type: 'string', default: '1' },
    edge: { type: 'string', default: '300' },
    coups: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
    inputs: { type: 'string' },
  },
});

const list = (name: string, v: string | undefined): number[] => {
  const out = (v ?? '').split(',').map(Number);
  if (out.length === 0 || out.some((x) => !Number.isFinite(x) || x <= 0)) throw new Error(`--${name}: positive numbers, comma-separated (got ${v})`);
  return out;
};
const one = (name: string, v: string | undefined): number => {
  const [x] = list(name, v);
  if (x === undefined) throw new Error(`--${name}`);
  return x;
};

const inputs = values.inputs ? FloorInputs.parse(JSON.parse(readFileSync(values.inputs, 'utf8'))) : MEASURED;
const coups = one('coups', values.coups);
const seed = one('seed', values.seed);
const edge = one('edge', values.edge);
console.log(`floor model, inputs: ${inputs.source}`);
console.log(
  'tables | stations each | coup s | per machine | edges each | host busy | card p50 / p99 ms | edge busy | upstream busy, lag p99 | LAN Mbit/s | host RSS MiB | limits',
);
for (const coupSeconds of list('coup-seconds', values['coup-seconds']))
  for (const tables of list('tables', values.tables))
    for (const stationsPerTable of list('stations', values.stations))
      for (const tablesPerMachine of list('per-machine', values['per-machine']))
        for (const edgeStations of [null, edge]) {
          const s: Scenario = { tables, stationsPerTable, coupSeconds, tablesPerMachine, edgeStations, coups, seed };
          const r = simulateFloor(inputs, s);
          const pc = (x: number) => `${(100 * x).toFixed(0)}%`;
          console.log(
            [
              tables,
              stationsPerTable,
              coupSeconds,
              tablesPerMachine,
              r.edgesPerTable || '—',
              pc(r.hostBusy),
              `${r.cardP50Ms.toFixed(1)} / ${r.cardP99Ms.toFixed(1)}`,
              r.edgesPerTable ? pc(r.edgeBusy) : '—',
              `${pc(r.upstreamBusy)}, ${r.upstreamLagP99Ms.toFixed(0)} ms`,
              r.lanMbit.toFixed(1),
              r.hostRssMiB.toFixed(0),
              r.limits.join('; ') || 'none',
            ].join(' | '),
          );
        }
