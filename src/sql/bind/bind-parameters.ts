// Bind parameters `$n`: counting them in a parsed statement, filling the client's values into a copy of the
// statement (the parse result itself stays shared by every Bind of a prepared statement), and turning a filled
// parameter into the typed constant the binder works with. Values never become SQL text.
import type { ParameterExpr, ParameterValue, Statement } from '../syntax/ast.js';
import type { BoundConstant } from './bound.js';
import { sqlSemanticError } from '../../core/errors.js';

/** Whether a plain AST object is a parameter node. */
function isParameterNode(node: object): node is ParameterExpr {
  return 'kind' in node && node.kind === 'parameter';
}

/** Visits every object of a statement tree (AST nodes are plain readonly objects and arrays). */
export function visitNodes(node: unknown, visit: (node: object) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visitNodes(item, visit);
  } else if (node !== null && typeof node === 'object') {
    visit(node);
    for (const child of Object.values(node)) visitNodes(child, visit);
  }
}

/** Every parameter node of a statement, in tree order. */
export function parametersOf(statement: Statement): ParameterExpr[] {
  const found: ParameterExpr[] = [];
  visitNodes(statement, (node) => { if (isParameterNode(node)) found.push(node); });
  return found;
}

/** The number of parameters a statement takes: the highest `$n` it names (PostgreSQL counts the same way). */
export function parameterCountOf(statement: Statement): number {
  return parametersOf(statement).reduce((max, parameter) => Math.max(max, parameter.index), 0);
}

function fillNode(node: unknown, values: readonly ParameterValue[]): unknown {
  if (Array.isArray(node)) return node.map((item: unknown) => fillNode(item, values));
  if (node === null || typeof node !== 'object') return node;
  if (isParameterNode(node)) {
    const value = values[node.index - 1];
    if (value === undefined) throw sqlSemanticError(`no value bound for parameter $${node.index}`, node.position);
    return { ...node, value };
  }
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) copy[key] = fillNode(child, values);
  return copy;
}

/**
 * A copy of `statement` whose parameters carry their values. The copy has the same shape as the input (only
 * parameter nodes gain `value`), which is what the final assertion of the type relies on.
 */
export function fillParameters(statement: Statement, values: readonly ParameterValue[]): Statement {
  if (values.length === 0 && parametersOf(statement).length === 0) return statement;
  return fillNode(statement, values) as Statement;
}

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

/** The typed constant of a filled parameter; an unfilled one is an error at its position. */
export function bindParameter(expr: ParameterExpr): BoundConstant {
  const position = expr.position;
  const parameter = expr.value;
  if (parameter === undefined) throw sqlSemanticError(`no value bound for parameter $${expr.index}`, position);
  const text = parameter.text;
  // A NULL value binds as the NULL literal does, whatever its declared type: QuestDB's rules for NULL
  // (`x = NULL` tests for null, INSERT stores the column's null) then apply unchanged.
  if (text === null) return { kind: 'constant', type: 'NULL', value: null, position };
  switch (parameter.type) {
    case 'LONG': case 'TIMESTAMP': case 'DATE': {
      const exact = parseInt64(text, expr);
      return { kind: 'constant', type: parameter.type, value: Number(exact), exact, position };
    }
    case 'SHORT': case 'INT': case 'FLOAT': case 'DOUBLE': {
      const value = Number(text);
      if ((text.trim() === '' || Number.isNaN(value)) && text !== 'NaN') throw badValue(expr, text);
      return { kind: 'constant', type: parameter.type, value, position };
    }
    case 'BOOLEAN': return { kind: 'constant', type: 'BOOLEAN', value: text === 'true', position };
    case 'BINARY': {
      if (!HEX_PATTERN.test(text)) throw badValue(expr, text);
      return { kind: 'constant', type: 'BINARY', value: Uint8Array.from(Buffer.from(text, 'hex')), position };
    }
    case 'VARCHAR': case 'UUID': case 'CHAR': return { kind: 'constant', type: parameter.type, value: text, position };
  }
}

function parseInt64(text: string, expr: ParameterExpr): bigint {
  if (!/^-?[0-9]{1,19}$/.test(text)) throw badValue(expr, text);
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) throw badValue(expr, text);
  return value;
}

function badValue(expr: ParameterExpr, text: string): Error {
  const shown = text.length > 64 ? `${text.slice(0, 64)}...` : text;
  return sqlSemanticError(`invalid value for parameter $${expr.index} [type=${expr.value?.type ?? '?'}, value=${shown}]`, expr.position);
}
