// SigV4 signing against the worked examples of the AWS S3 API reference ("Signature Calculations for the
// Authorization Header", example credentials and bucket), and the path encoding S3 expects.
import test from 'ava';
import { SigV4Signer, encodeS3Path, EMPTY_PAYLOAD_SHA256, sha256Hex } from '../../../src/objectstore/sigv4.js';

const exampleCredentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const exampleDate = new Date(Date.UTC(2013, 4, 24));

test('GET Object with a Range header matches the reference signature', (t) => {
  const signer = new SigV4Signer(exampleCredentials, 'us-east-1');
  const headers = signer.sign({ method: 'GET', host: 'examplebucket.s3.amazonaws.com', path: '/test.txt', payloadSha256: EMPTY_PAYLOAD_SHA256, extraHeaders: { range: 'bytes=0-9' } }, exampleDate);
  t.is(headers['x-amz-date'], '20130524T000000Z');
  t.is(headers['authorization'], 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
});

test('the payload hash is the SHA-256 of the body, and the empty body has the fixed one', (t) => {
  t.is(EMPTY_PAYLOAD_SHA256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  t.is(sha256Hex(Buffer.from('Welcome to Amazon S3.')), '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
});

test('a session token is signed and sent', (t) => {
  const signer = new SigV4Signer({ ...exampleCredentials, sessionToken: 'token' }, 'us-east-1');
  const headers = signer.sign({ method: 'HEAD', host: 'h', path: '/b/k', payloadSha256: EMPTY_PAYLOAD_SHA256 }, exampleDate);
  t.is(headers['x-amz-security-token'], 'token');
  t.regex(headers['authorization'] ?? '', /SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/);
});

test('keys are encoded once, slashes kept, reserved characters escaped', (t) => {
  t.is(encodeS3Path('a b/c+d/%20/=&?/é/(x)*!\'/'), 'a%20b/c%2Bd/%2520/%3D%26%3F/%C3%A9/%28x%29%2A%21%27/');
});
