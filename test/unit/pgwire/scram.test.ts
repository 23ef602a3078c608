// SCRAM-SHA-256 server side against an independent client computation (RFC 5802 / 7677): the right password
// proves itself and gets the server signature; a wrong password or a replayed nonce does not.
import test from 'ava';
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { ScramExchange } from '../../../src/pgwire/scram.js';

function clientFinal(password: string, clientFirstBare: string, serverFirst: string): { message: string; serverSignature: string } {
  const attributes = new Map(serverFirst.split(',').map((part) => [part[0], part.slice(2)]));
  const salted = pbkdf2Sync(password, Buffer.from(attributes.get('s') ?? '', 'base64'), Number(attributes.get('i')), 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const withoutProof = `c=biws,r=${attributes.get('r') ?? ''}`;
  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const signature = createHmac('sha256', storedKey).update(authMessage).digest();
  const proof = Buffer.from(clientKey.map((byte, i) => byte ^ (signature[i] as number)));
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return { message: `${withoutProof},p=${proof.toString('base64')}`, serverSignature: `v=${createHmac('sha256', serverKey).update(authMessage).digest('base64')}` };
}

test('the right password is accepted and the server proves it knows it too', (t) => {
  const exchange = new ScramExchange('quest');
  const serverFirst = exchange.first('n,,n=,r=clientnonce123');
  t.regex(serverFirst, /^r=clientnonce123[A-Za-z0-9+/=]+,s=[A-Za-z0-9+/=]+,i=4096$/);
  const final = clientFinal('quest', 'n=,r=clientnonce123', serverFirst);
  t.is(exchange.final(final.message), final.serverSignature);
});

test('a wrong password or a changed nonce is refused', (t) => {
  const exchange = new ScramExchange('quest');
  const serverFirst = exchange.first('n,,n=,r=abc');
  t.is(exchange.final(clientFinal('guess', 'n=,r=abc', serverFirst).message), undefined);
  const tampered = clientFinal('quest', 'n=,r=abc', serverFirst).message.replace(/r=abc/, 'r=abd');
  t.is(exchange.final(tampered), undefined);
});

test('channel binding and a missing nonce are protocol errors', (t) => {
  t.throws(() => new ScramExchange('x').first('p=tls-server-end-point,,n=,r=a'), { message: /channel binding/ });
  t.throws(() => new ScramExchange('x').first('n,,n='), { message: /nonce/ });
});
