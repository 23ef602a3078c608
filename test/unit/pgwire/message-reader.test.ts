// Framing: messages split across chunks and several in one chunk, the untyped start-up packet then typed
// messages pipelined behind it, and lengths outside [4, bound] refused before anything is buffered.
import test from 'ava';
import { MessageReader } from '../../../src/pgwire/message-reader.js';
import { queryMessage, startupMessage, syncMessage, typedMessage } from '../../helpers/pg-messages.js';

test('typed messages split anywhere and joined in one chunk come out whole and in order', (t) => {
  const bytes = Buffer.concat([queryMessage('select 1'), syncMessage(), queryMessage('select 2')]);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const reader = new MessageReader(1024);
    reader.startTyped();
    const messages = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
    t.deepEqual(messages.map((m) => [m.type, m.body.toString('latin1')]), [['Q', 'select 1\0'], ['S', ''], ['Q', 'select 2\0']]);
    t.is(reader.bufferedBytes, 0);
  }
});

test('the start-up packet stops framing so typed messages behind it are read typed', (t) => {
  const reader = new MessageReader(1024);
  const first = reader.push(Buffer.concat([startupMessage({ user: 'u' }), queryMessage('x')]));
  t.deepEqual(first.map((m) => m.type), ['']);
  reader.startTyped();
  t.deepEqual(reader.drain().map((m) => m.type), ['Q']);
});

test('lengths below 4 or above the bound are protocol errors', (t) => {
  for (const length of [0, 3, -1, 1025]) {
    const reader = new MessageReader(1024);
    reader.startTyped();
    t.throws(() => reader.push(typedMessage('Q', Buffer.alloc(8), length)), { message: /invalid message length|message too large/ });
  }
  const exact = new MessageReader(1024);
  exact.startTyped();
  t.is(exact.push(typedMessage('Q', Buffer.alloc(1020))).length, 1);
});
