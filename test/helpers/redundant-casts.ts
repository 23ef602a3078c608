// Finds type assertions that do nothing: `x as T` / `<T>x` whose operand the checker already types as exactly T.
// The project compiles with TypeScript 7, which has no JavaScript compiler API, so this uses the TypeScript 6
// compiler bundled by @ts-morph/common (one program over tsconfig.json, lib files served from memory; the
// package has no `tsc` binary to shadow TypeScript 7's). Only operands whose type does not depend on the
// assertion's contextual type are judged (names, property and element reads, calls of non-generic signatures):
// for a literal, an object or a generic call the assertion can change what the operand infers.
import { ts, getLibFiles } from '@ts-morph/common';
import { relative } from 'node:path';

export interface RedundantCast {
  /** Path relative to the project root. */
  readonly file: string;
  /** 1-based line of the assertion. */
  readonly line: number;
  /** The assertion's source text. */
  readonly text: string;
  /** Start and end offsets of the assertion and of its operand in the file (for a mechanical removal). */
  readonly start: number;
  readonly end: number;
  readonly operandStart: number;
  readonly operandEnd: number;
}

/** Where the in-memory lib files (lib.es2023.d.ts…) appear to live; no such folder exists on disk. */
const LIB_FOLDER = '/__typescript_lib__';

function createHost(options: ts.CompilerOptions): ts.CompilerHost {
  const libs = new Map(getLibFiles().map((file) => [`${LIB_FOLDER}/${file.fileName}`, file.text]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getDefaultLibLocation = () => LIB_FOLDER;
  host.getDefaultLibFileName = (libOptions) => `${LIB_FOLDER}/${ts.getDefaultLibFileName(libOptions)}`;
  host.fileExists = (path) => libs.has(path) || fileExists(path);
  host.readFile = (path) => libs.get(path) ?? readFile(path);
  host.getSourceFile = (path, language, onError) => {
    const text = libs.get(path);
    return text === undefined ? getSourceFile(path, language, onError) : ts.createSourceFile(path, text, language);
  };
  return host;
}

/** The program of `tsconfig` (an absolute path), type-checked lazily as the walk asks for types. */
function createProgram(projectRoot: string, tsconfig: string): ts.Program {
  const read = ts.readConfigFile(tsconfig, (path) => ts.sys.readFile(path));
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, projectRoot);
  const options = { ...parsed.options, noEmit: true };
  return ts.createProgram({ rootNames: parsed.fileNames, options, host: createHost(options) });
}

/** True when the operand's type comes from its own declaration, not from the assertion's contextual type. */
function judgedOperand(checker: ts.TypeChecker, operand: ts.Expression): boolean {
  let inner = operand;
  while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
  if (ts.isIdentifier(inner) || ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner)) return true;
  if (inner.kind === ts.SyntaxKind.ThisKeyword || ts.isNonNullExpression(inner)) return true;
  if (!ts.isCallExpression(inner)) return false;
  const declaration = checker.getResolvedSignature(inner)?.getDeclaration();
  return declaration !== undefined && (declaration.typeParameters === undefined || declaration.typeParameters.length === 0);
}

function isRedundant(checker: ts.TypeChecker, node: ts.AsExpression | ts.TypeAssertion): boolean {
  if (ts.isConstTypeReference(node.type) || !judgedOperand(checker, node.expression)) return false;
  return checker.getTypeAtLocation(node.expression) === checker.getTypeFromTypeNode(node.type);
}

/** Every do-nothing assertion in the files of `tsconfig` that lie under `underFolder`. */
export function redundantCasts(projectRoot: string, tsconfig: string, underFolder: string): RedundantCast[] {
  const program = createProgram(projectRoot, tsconfig);
  const checker = program.getTypeChecker();
  const found: RedundantCast[] = [];
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(`${underFolder}/`)) continue;
    const visit = (node: ts.Node): void => {
      if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && isRedundant(checker, node)) {
        const start = node.getStart(source);
        found.push({
          file: relative(projectRoot, source.fileName), line: source.getLineAndCharacterOfPosition(start).line + 1,
          text: node.getText(source), start, end: node.getEnd(),
          operandStart: node.expression.getStart(source), operandEnd: node.expression.getEnd(),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
