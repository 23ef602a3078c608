// Finds the calls in a TypeScript source that can detach an ArrayBuffer: postMessage or structuredClone given a
// transfer list (a second argument), a `transferList` option (Worker, MessagePort), ArrayBuffer's
// transfer / transferToFixedLength, and BYOB stream readers (which detach the buffer handed to each read). The
// first detached buffer of a V8 isolate makes it recompile every typed-array loop with a detach check per
// access, for the rest of the process's or thread's life. Parsed with the TypeScript 6 compiler bundled by
// @ts-morph/common (syntax only, no program), so comments and strings never match.
import { ts } from '@ts-morph/common';

export interface DetachingCall {
  /** 1-based line of the call. */
  readonly line: number;
  /** The call's source text, cut to one line. */
  readonly text: string;
}

/** Methods whose second argument is a transfer list (or options holding one). */
const TRANSFER_SECOND_ARGUMENT = new Set(['postMessage', 'structuredClone']);
/** Methods that detach their receiver (ArrayBuffer.prototype.transfer and its fixed-length form). */
const DETACHING_METHODS = new Set(['transfer', 'transferToFixedLength']);

function calledName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function isDetaching(node: ts.Node): boolean {
  if (ts.isCallExpression(node)) {
    const name = calledName(node);
    if (name === undefined) return false;
    if (TRANSFER_SECOND_ARGUMENT.has(name)) return node.arguments.length >= 2;
    return DETACHING_METHODS.has(name) && ts.isPropertyAccessExpression(node.expression);
  }
  if (ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) return node.name.getText() === 'transferList';
  // getReader({ mode: 'byob' }) and readable byte streams read into buffers they detach.
  return ts.isStringLiteral(node) && node.text === 'byob';
}

export function detachingCalls(fileName: string, text: string): DetachingCall[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: DetachingCall[] = [];
  const visit = (node: ts.Node): void => {
    if (isDetaching(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ line, text: node.getText(source).split('\n')[0] ?? '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
