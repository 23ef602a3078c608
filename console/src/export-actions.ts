// Export of the current statement through /exp as CSV or Parquet. Without entered credentials the browser
// downloads the URL itself, streaming to disk however large the export; with them, the Authorization header
// can only be sent by fetch, so the file is fetched into a blob first and saved from there.
import { exportUrl, parseExecBody } from './api.js';
import type { ExportFormat } from './api.js';
import { authorizationHeader, authorizedFetch } from './credentials.js';

function saveAs(href: string, filename: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
}

function filenameFor(format: ExportFormat): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return `export-${stamp}.${format}`;
}

/** Starts the download; resolves with an error text when the server refused the statement. */
export async function exportQuery(query: string, format: ExportFormat): Promise<string | undefined> {
  // Validate first: a refused statement would otherwise download as a file holding the error JSON.
  const validation = parseExecBody(await (await authorizedFetch(`api/v1/sql/validate?${new URLSearchParams({ query }).toString()}`)).json());
  if (validation.kind === 'error') return validation.message;
  const filename = filenameFor(format);
  const url = exportUrl(query, format, filename);
  if (authorizationHeader() === null) {
    saveAs(url, filename);
    return undefined;
  }
  const response = await authorizedFetch(url);
  if (!response.ok) return `export failed (HTTP ${response.status}): ${(await response.text()).slice(0, 300)}`;
  const objectUrl = URL.createObjectURL(await response.blob());
  saveAs(objectUrl, filename);
  // The click has started the download by now; revoke later so the browser has read the blob.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  return undefined;
}
