// How S3 failures are classified: which are retried (5xx, 429, 408, a raced conditional write, network
// errors), which are refusals (other 4xx), which mean a missing object (404) or an unsupported request (501).
import test from 'ava';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { classifyS3Error } from '../../../src/objectstore/s3-store.js';
import { S3ResponseError } from '../../../src/objectstore/s3-http-client.js';

function serviceError(status: number, name = 'SomeError'): S3ServiceException {
  return new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status }, message: `status ${status}` });
}

test('statuses map to failure kinds', (t) => {
  const kinds = [500, 503, 429, 408, 404, 501, 403, 400, 416, 409].map((status) => `${status}:${classifyS3Error(serviceError(status)).kind}`);
  t.deepEqual(kinds, ['500:transient', '503:transient', '429:transient', '408:transient', '404:not-found', '501:unsupported', '403:rejected', '400:rejected', '416:rejected', '409:rejected']);
  t.is(classifyS3Error(serviceError(409, 'ConditionalRequestConflict')).kind, 'transient');
  t.is(classifyS3Error(serviceError(404, 'NoSuchBucket')).kind, 'transient');
  t.is(classifyS3Error(serviceError(404, 'NoSuchKey')).kind, 'not-found');
});

test('connection errors anywhere on the cause chain are transient; unknown errors are refusals', (t) => {
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  t.is(classifyS3Error(reset).kind, 'transient');
  t.is(classifyS3Error(new Error('wrapped', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) })).kind, 'transient');
  t.is(classifyS3Error(Object.assign(new Error('timed out'), { name: 'TimeoutError' })).kind, 'transient');
  t.is(classifyS3Error(new Error('Could not load credentials from any providers')).kind, 'rejected');
});

test('the lean client\'s errors classify as the SDK\'s do, by status and store code', (t) => {
  const kinds = [500, 404, 412, 501, 403, 416].map((status) => `${status}:${classifyS3Error(new S3ResponseError(status, 'SomeError', 'text')).kind}`);
  t.deepEqual(kinds, ['500:transient', '404:not-found', '412:changed', '501:unsupported', '403:rejected', '416:rejected']);
  t.is(classifyS3Error(new S3ResponseError(404, 'NoSuchBucket', 'text')).kind, 'transient');
});
