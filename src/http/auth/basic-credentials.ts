// Parses the value of an `Authorization: Basic …` header: strict Base64 of `user:password`, where the user name
// has no colon and everything after the first colon is the password. Anything else (padding errors, characters
// outside the Base64 alphabet, a trailing newline encoded into the value, control characters) is malformed, so a
// header built with `echo user:pass | base64` is refused instead of silently trimmed.

export interface BasicCredentials {
  readonly user: string;
  readonly password: string;
}

/** Longest Base64 credential accepted; real credentials are far shorter, this only bounds the work. */
const BASIC_VALUE_LENGTH_MAX = 4096;
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Control characters (CR, LF, NUL…) never belong in a user name or password.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** The scheme word of an Authorization value, lower-cased (`basic`, `bearer`), and the rest of the value. */
export function splitAuthorization(header: string): { scheme: string; value: string } {
  const space = header.indexOf(' ');
  if (space < 0) return { scheme: header.toLowerCase(), value: '' };
  return { scheme: header.slice(0, space).toLowerCase(), value: header.slice(space + 1).trim() };
}

/** The credentials of a Basic value (the part after `Basic `), or undefined when it is malformed. */
export function parseBasicCredentials(value: string): BasicCredentials | undefined {
  if (value.length === 0 || value.length > BASIC_VALUE_LENGTH_MAX || !BASE64_PATTERN.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Invalid UTF-8 decodes to U+FFFD; such credentials can never match configured text, so refuse them outright.
  if (text.includes('\ufffd') || CONTROL_CHARACTER.test(text)) return undefined;
  const colon = text.indexOf(':');
  if (colon <= 0) return undefined;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}
