// Comparison of secrets whose time does not depend on where the inputs differ, nor on their lengths:
// both sides are hashed to fixed-size digests first, then compared with crypto.timingSafeEqual.
import { createHash, timingSafeEqual } from 'node:crypto';

function digestOf(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function constantTimeEquals(candidate: string, expected: string): boolean {
  return timingSafeEqual(digestOf(candidate), digestOf(expected));
}
