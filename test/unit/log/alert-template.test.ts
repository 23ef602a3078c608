// The alert template: the bundled default's labels and annotations, substitution that always yields valid JSON,
// the spec's capitalised form converted to Alertmanager v2's, size capping, and start-up errors.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseAlertTemplate, type AlertTemplateContext } from '../../../src/log/alert-template.js';
import { bundledAlertTemplatePath } from '../../../src/log/log-conf-file.js';

const CONTEXT: AlertTemplateContext = { env: { CLUSTER_NAME: 'eu-1' }, version: '1.2.3', key: 'w.alert.location' };
const SENT_AT = Date.UTC(2021, 10, 16, 19, 36, 3, 10);

function renderOne(templateText: string, message: string, context = CONTEXT): Record<string, unknown> {
  const body: unknown = JSON.parse(parseAlertTemplate(templateText, 'test', context).render(message, SENT_AT));
  if (!Array.isArray(body) || body.length !== 1) throw new Error('expected one alert');
  return body[0] as Record<string, unknown>;
}

test('the bundled template renders a v2 alert with every label and the message', (t) => {
  const text = readFileSync(bundledAlertTemplatePath(), 'utf8');
  const alert = renderOne(text, '2021-11-16T19:36:03.010000Z C engine broken');
  t.deepEqual(alert['labels'], {
    alertname: 'SvcInstanceLogs',
    service: 'svc',
    category: 'application-logs',
    severity: 'critical',
    version: '1.2.3',
    cluster: 'eu-1',
    orgid: 'GLOBAL',
    namespace: 'GLOBAL',
    instance: 'GLOBAL',
    alertTimestamp: '2021/11/16T19:36:03.010',
  });
  t.deepEqual(alert['annotations'], {
    description: 'ERROR/cl:eu-1/org:GLOBAL/ns:GLOBAL/db:GLOBAL',
    message: '2021-11-16T19:36:03.010000Z C engine broken',
  });
  t.is(alert['startsAt'], '2021-11-16T19:36:03.010Z');
  t.false('Status' in alert || 'Labels' in alert, 'capitalised keys are converted to v2');
});

test('messages with quotes, $, backslashes, tabs and newlines stay valid JSON and arrive intact', (t) => {
  const message = 'C engine "quoted" $HOME ${NOT_A_VAR} C:\\path\ttab\nError: boom\n    at x (y.ts:1:2)';
  const alert = renderOne('[{"labels":{"alertname":"A"},"annotations":{"message":"${ALERT_MESSAGE}"}}]', message);
  t.deepEqual(alert['annotations'], { message });
});

test('templates may set v2 fields, mark alerts resolved, and use plain $ as text', (t) => {
  const alert = renderOne(
    '[{"Status":"resolved","Labels":{"alertname":"A","cost":"$5"},"Annotations":{"m":"${ALERT_MESSAGE}"},"generatorURL":"http://x/${INSTANCE_NAME}"}]',
    'msg',
  );
  t.is(alert['endsAt'], '2021-11-16T19:36:03.010Z');
  t.is(alert['generatorURL'], 'http://x/GLOBAL');
  t.deepEqual(alert['labels'], { alertname: 'A', cost: '$5' });
});

test('renderWithin cuts the message so the body fits outBufferSize', (t) => {
  const template = parseAlertTemplate('[{"labels":{"alertname":"A"},"annotations":{"message":"${ALERT_MESSAGE}"}}]', 'test', CONTEXT);
  const message = `C engine ${'é"\n'.repeat(5000)}`;
  const body = template.renderWithin(message, SENT_AT, 4096);
  t.truthy(body);
  t.true(Buffer.byteLength(body ?? '') <= 4096);
  const parsed: unknown = JSON.parse(body ?? '');
  t.regex(JSON.stringify(parsed), /…\[truncated\]/);
  t.is(template.renderWithin(message, SENT_AT, 20), undefined, 'not even the frame fits');
  t.is(template.renderWithin('short', SENT_AT, 4096), template.render('short', SENT_AT));
});

test('template mistakes are start-up errors naming the key', (t) => {
  const cases: Array<[string, RegExp]> = [
    ['not json', /not JSON/],
    ['[]', /non-empty JSON array/],
    ['[{"labels":{"alertname":"A"}}]', /no \$\{ALERT_MESSAGE\} declaration found/],
    ['[{"labels":{"alertname":"A","m":"${ALERT_MESSAGE}","x":"${SURELY_UNDEFINED_VAR}"}}]', /Undefined property: SURELY_UNDEFINED_VAR/],
    ['[{"labels":{"m":"${ALERT_MESSAGE}"}}]', /need an alertname/],
    ['[{"labels":{"alertname":"A","m":"${ALERT_MESSAGE"}}]', /missing '}'/],
    ['[{"labels":{"alertname":"A","m":"${ALERT_MESSAGE}","n":1}}]', /values must be strings/],
    ['[{"Labelz":{},"labels":{"alertname":"A","m":"${ALERT_MESSAGE}"}}]', /unknown field Labelz/],
    ['[{"labels":{"alertname":"A","m":"${ALERT_MESSAGE}","d":"${date:}"}}]', /missing pattern/],
  ];
  for (const [text, message] of cases) {
    const error = t.throws(() => parseAlertTemplate(text, 'test', CONTEXT), { message }, text);
    t.regex(error?.message ?? '', /\[key=w\.alert\.location\]/);
  }
});
