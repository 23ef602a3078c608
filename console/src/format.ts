// Display formatting shared by the grid, the status line and the import report.

export function formatNanos(nanos: number): string {
  const ms = nanos / 1e6;
  if (ms < 1) return `${(nanos / 1e3).toFixed(0)} µs`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The element with this id, which index.html must contain. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`index.html lacks #${id}`);
  return node;
}
