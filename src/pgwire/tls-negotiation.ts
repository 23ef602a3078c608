// TLS for PostgreSQL connections (pg.tls.cert.path / pg.tls.key.path): a client asks with SSLRequest before
// its start-up packet; the server answers 'S' and the rest of the connection runs over node:tls on the same
// socket. Anything else read here is pushed back for the connection to read (without TLS configured the
// connection answers SSLRequest 'N' itself). A peer that sends nothing for the handshake timeout is dropped.
import type { Socket } from 'node:net';
import { TLSSocket, type SecureContext } from 'node:tls';
import { SSL_REQUEST } from './startup.js';

const SSL_REQUEST_BYTES = 8;

/** The socket to speak PostgreSQL on: a TLSSocket after an accepted SSLRequest, else `socket` itself; undefined if it closed. */
export function negotiateTls(socket: Socket, context: SecureContext, timeoutMs: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < SSL_REQUEST_BYTES) return;
      const isSslRequest = buffered.readInt32BE(0) === SSL_REQUEST_BYTES && buffered.readInt32BE(4) === SSL_REQUEST;
      socket.off('data', onData);
      socket.pause();
      if (!isSslRequest || buffered.length > SSL_REQUEST_BYTES) {
        // Not an SSLRequest (or bytes after it, which a client may not send before the answer): plain text.
        socket.unshift(buffered);
        finish(socket);
        return;
      }
      socket.write('S');
      const secure = new TLSSocket(socket, { isServer: true, secureContext: context });
      secure.on('error', () => secure.destroy());
      finish(secure);
    };
    const onClose = (): void => finish(undefined);
    const finish = (result: Socket | undefined): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (result === undefined) socket.destroy();
      resolve(result);
    };
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}
