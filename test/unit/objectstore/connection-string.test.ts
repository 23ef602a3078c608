// QuestDB's object-store connection strings: both forms, credentials from the string or the environment,
// and errors that name the bad key and its offset without ever echoing a secret.
import test from 'ava';
import { ConfigError } from '../../../src/core/errors.js';
import { parseConnectionString, describeLocation } from '../../../src/objectstore/connection-string.js';

const KEY = 'cold.storage.object.store';

function parse(text: string, env: NodeJS.ProcessEnv = {}): ReturnType<typeof parseConnectionString> {
  return parseConnectionString(text, KEY, env);
}

function errorOf(text: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    parse(text, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`parsed without error: ${text}`);
}

test('s3:: with every key, path style by default, credentials from the string', (t) => {
  const location = parse('s3::bucket=svc-data;root=/prod/node-a/;region=eu-west-1;endpoint=http://127.0.0.1:9900/;access_key_id=AK;secret_access_key=se;;cret;');
  t.deepEqual(location, {
    kind: 's3', bucket: 'svc-data', root: 'prod/node-a', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9900',
    credentials: { accessKeyId: 'AK', secretAccessKey: 'se;cret' }, virtualHostStyle: false,
  });
  t.is(describeLocation(location), 's3 endpoint=http://127.0.0.1:9900 bucket=svc-data root=prod/node-a');
});

test('s3:: takes credentials and region from the environment, and leaves them to the SDK without either', (t) => {
  const location = parse('s3::bucket=b12;', { AWS_ACCESS_KEY_ID: 'env-id', AWS_SECRET_ACCESS_KEY: 'env-secret', AWS_SESSION_TOKEN: 'tok', AWS_REGION: 'ap-south-1' });
  t.true(location.kind === 's3' && location.region === 'ap-south-1' && location.endpoint === null && location.root === '');
  t.deepEqual(location.kind === 's3' ? location.credentials : null, { accessKeyId: 'env-id', secretAccessKey: 'env-secret', sessionToken: 'tok' });
  const bare = parse('s3::bucket=b12;region=us-east-1');
  t.true(bare.kind === 's3' && bare.credentials === null && bare.region === 'us-east-1');
  const virtual = parse('s3::bucket=b12;enable_virtual_host_style=true;');
  t.true(virtual.kind === 's3' && virtual.virtualHostStyle);
});

test('fs:: needs absolute root and atomic_write_dir', (t) => {
  t.deepEqual(parse('fs::root=/mnt/store/final/;atomic_write_dir=/mnt/store/scratch;'), { kind: 'fs', root: '/mnt/store/final', atomicWriteDir: '/mnt/store/scratch' });
  t.is(errorOf('fs::root=relative/dir;atomic_write_dir=/x;'), `object store connection string: root at position 4 must be an absolute path [key=${KEY}]`);
  t.regex(errorOf('fs::root=/a;'), /fs:: needs 'atomic_write_dir'/);
});

test('errors name the bad key and its position', (t) => {
  t.regex(errorOf('s3::bucket=b12;regoin=us-east-1;'), /unknown key 'regoin' at position 15 for s3::/);
  t.regex(errorOf('gcs::bucket=b12;'), /unknown store kind 'gcs'/);
  t.regex(errorOf('bucket=b12;'), /expected 's3::' or 'fs::' at position 0/);
  t.regex(errorOf('s3::bucket=b12;root;'), /expected key=value at position 15/);
  t.regex(errorOf('s3::bucket=b12;bucket=b13;'), /key 'bucket' given twice, again at position 15/);
  t.regex(errorOf('s3::root=x;'), /s3:: needs 'bucket'/);
  t.regex(errorOf('s3::bucket=Bad_Name;'), /bucket at position 4 is not a valid bucket name/);
  t.regex(errorOf('s3::bucket=b12;endpoint=127.0.0.1:9000;'), /endpoint at position 15 must be an http/);
  t.regex(errorOf('s3::bucket=b12;root=a/../b;'), /must not contain/);
  t.regex(errorOf('s3::bucket=b12;enable_virtual_host_style=yes;'), /must be true or false/);
});

test('secrets never appear in errors', (t) => {
  const secret = 'Sup3rS3cret';
  for (const text of [
    `s3::bucket=b12;secret_access_key=${secret};`,
    `s3::bucket=b12;access_key_id=${secret};`,
    `s3::bucket=b12;access_key_id=x;secret_access_key=${secret};extra=1;`,
    `s3::bucket=b12;secret_access_key=${secret};secret_access_key=${secret};`,
    `s3::bucket=b12;endpoint=http://user:${secret}@host:9000;`,
  ]) {
    const message = errorOf(text);
    t.false(message.includes(secret), message);
  }
});
