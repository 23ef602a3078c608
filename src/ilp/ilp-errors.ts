// Errors of the line protocol. IlpValueError is thrown by the value readers without knowing where they are;
// the line parser turns it into an IlpError carrying the 1-based line number, which both transports report
// (HTTP in the {code,message,line,errorId} body, TCP in the log record before it closes the connection).
import { SvcError, type ErrorCode } from '../core/errors.js';

/** A bad value inside a line; the parser adds the line number. */
export class IlpValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IlpValueError';
  }
}

/** The `code` word of QuestDB's ILP error body for each of our codes. */
export const ILP_CODE_WORDS: Readonly<Partial<Record<ErrorCode, string>>> = {
  SVC_ILP_INVALID: 'invalid',
  SVC_ILP_NOT_SUPPORTED: 'not supported',
  SVC_ILP_TOO_LARGE: 'request too large',
  SVC_FORBIDDEN: 'unauthorised',
};

export class IlpError extends SvcError {
  /** 1-based line of the request the error is about; 0 when it is about the request as a whole. */
  readonly line: number;
  constructor(code: ErrorCode, message: string, line: number, httpStatus = 400) {
    super(code, message, httpStatus);
    this.name = 'IlpError';
    this.line = line;
  }
}

export function ilpLineError(message: string, line: number): IlpError {
  return new IlpError('SVC_ILP_INVALID', message, line);
}
