// npm run soak: the long chaos soak (SOAK_SECONDS, default 120 s) with its figures; exits 1 on any violation.
import { runSoak } from '../test/helpers/soak.js';

const seconds = Number(process.env['SOAK_SECONDS'] ?? 120);
const started = Date.now();
const report = await runSoak({ seconds, writers: 6, importers: 2, readers: 3, log: (line) => process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s  ${line}\n`) });
process.stdout.write(`\nsoak ${seconds} s: acknowledged rows ${report.acknowledgedRows}, final rows ${report.finalRows}, unacknowledged batches ${report.unacknowledgedBatches}, ` +
  `failed requests ${report.failedRequests}, worker kills ${report.workerKills}, primary kills ${report.primaryKills}, reader checks ${report.readerChecks}\n`);
for (const violation of report.violations.slice(0, 50)) process.stdout.write(`VIOLATION ${violation}\n`);
process.exit(report.violations.length === 0 && report.primaryKills === 2 ? 0 : 1);
