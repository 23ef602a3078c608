// Health latency bench: the :9003 health check answered by the primary while both workers run CPU-heavy
// queries, against the same check on an idle server. Prints p50/p99/max over HEALTH_SAMPLES requests
// (default 200). There is no DuckDB counterpart: this measures svc's process split, not a query.
import { startServer } from '../test/helpers/server.js';
import { exec } from '../test/helpers/http.js';

const samples = Number(process.env['HEALTH_SAMPLES'] ?? 200);

async function healthLatencies(adminUrl: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let k = 0; k < samples; k++) {
    const started = process.hrtime.bigint();
    const response = await fetch(`${adminUrl}/`);
    await response.text();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return latencies.sort((a, b) => a - b);
}

function summary(latencies: readonly number[]): string {
  const at = (q: number): string => (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] as number).toFixed(2);
  return `p50 ${at(0.5)} ms | p99 ${at(0.99)} ms | max ${at(1)} ms`;
}

async function main(): Promise<void> {
  const server = await startServer({ workers: 2 });
  try {
    const idle = await healthLatencies(server.adminUrl);
    // Four long aggregations keep both workers' event loops busy for the whole measurement.
    const heavy = Array.from({ length: 4 }, () => exec(server.baseUrl, 'select sum(x * x) from long_sequence(20000000000)', {}, { headers: { 'Statement-Timeout': '20000' } }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const busy = await healthLatencies(server.adminUrl);
    await Promise.all(heavy);
    process.stdout.write(`\nHealth check on :9003, ${samples} sequential requests\n| state | latency |\n|---|---|\n| idle | ${summary(idle)} |\n| both workers running CPU-heavy queries | ${summary(busy)} |\n`);
  } finally {
    await server.stop();
    server.cleanup();
  }
}

await main();
