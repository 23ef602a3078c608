// Pre-generated ILP request bodies for the ingestion bench: the standard table's narrow rows (the same rows as
// the standard CSV, so /imp and ILP load identical data) and TSBS cpu-only rows (10 tags, 10 integer fields,
// TSBS's influx serialisation: one row per host per 10 s).
import { standardCsvRow } from '../../test/helpers/csv-stream.js';

const START_MICROS = Date.UTC(2024, 0, 1) * 1000;
const TSBS_START_NANOS = BigInt(Date.UTC(2016, 0, 1)) * 1_000_000n;
const REGIONS = ['us-east-1', 'us-west-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1', 'ap-southeast-2', 'ap-northeast-1', 'sa-east-1'];
const OSES = ['Ubuntu16.10', 'Ubuntu16.04LTS', 'Ubuntu15.10'];
const TEAMS = ['SF', 'NYC', 'LON', 'CHI'];
const CPU_FIELDS = ['usage_user', 'usage_system', 'usage_idle', 'usage_nice', 'usage_iowait', 'usage_irq', 'usage_softirq', 'usage_steal', 'usage_guest', 'usage_guest_nice'];

/** The standard row `i` as a line: the CSV row's values, the timestamp in nanoseconds. */
export function standardIlpRow(i: number, table = 'trades'): string {
  const fields = standardCsvRow(i).split(',');
  const micros = START_MICROS + i * 100_000;
  return `${table},sym=${fields[1] ?? ''} price=${fields[2] ?? ''},amount=${(fields[3] ?? '').trim()}i ${micros}000\n`;
}

function hostTags(host: number): string {
  const region = REGIONS[host % REGIONS.length] ?? '';
  return `hostname=host_${host},region=${region},datacenter=${region}${'abc'[host % 3] ?? 'a'},rack=${host % 100},os=${OSES[host % OSES.length] ?? ''},`
    + `arch=${host % 2 === 0 ? 'x64' : 'x86'},team=${TEAMS[host % TEAMS.length] ?? ''},service=${host % 20},service_version=${host % 2},service_environment=${host % 3 === 0 ? 'production' : 'staging'}`;
}

/** TSBS cpu-only row `i` for `hosts` hosts: rows go host by host, then the next 10 s step. */
export function tsbsCpuRow(i: number, hosts: number, table = 'cpu'): string {
  const host = i % hosts;
  const step = Math.floor(i / hosts);
  let fields = '';
  for (let k = 0; k < CPU_FIELDS.length; k++) fields += `${k === 0 ? '' : ','}${CPU_FIELDS[k] ?? ''}=${(i * 7919 + k * 104729) % 100}i`;
  return `${table},${hostTags(host)} ${fields} ${TSBS_START_NANOS + BigInt(step) * 10_000_000_000n}\n`;
}

/** Bodies of `rowsPerBody` rows each (the last may be shorter), `rowCount` rows in all. */
export function ilpBodies(rowCount: number, rowsPerBody: number, row: (i: number) => string): Buffer[] {
  const bodies: Buffer[] = [];
  for (let start = 0; start < rowCount; start += rowsPerBody) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(rowCount, start + rowsPerBody); i++) lines.push(row(i));
    bodies.push(Buffer.from(lines.join('')));
  }
  return bodies;
}
