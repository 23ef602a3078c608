// Short chaos soak (SOAK_SECONDS, default 25 s): writers, an importer and readers against random worker kills
// and two kill -9s of the primary; every acknowledged row survives exactly once (see test/helpers/soak.ts).
// The long form is `npm run soak`.
import test from 'ava';
import { runSoak } from '../helpers/soak.js';

const SECONDS = Number(process.env['SOAK_SECONDS'] ?? 25);

test(`chaos soak (${SECONDS} s): nothing acknowledged is lost, nothing unacknowledged is half-visible`, async (t) => {
  t.timeout((SECONDS + 120) * 1000);
  const report = await runSoak({ seconds: SECONDS, log: (line) => t.log(line) });
  t.log(`acknowledged rows ${report.acknowledgedRows}, final rows ${report.finalRows}, unacknowledged batches ${report.unacknowledgedBatches}, failed requests ${report.failedRequests}, worker kills ${report.workerKills}, primary kills ${report.primaryKills}, reader checks ${report.readerChecks}`);
  for (const violation of report.violations.slice(0, 20)) t.log(violation);
  t.deepEqual(report.violations, []);
  t.is(report.primaryKills, 2, 'the primary was killed and restarted twice');
  t.true(report.workerKills >= 2, `workers were killed (${report.workerKills})`);
  t.true(report.acknowledgedRows > 100, 'the writers made progress');
  t.true(report.readerChecks > 10, 'the readers checked the invariants');
});
