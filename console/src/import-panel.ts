// CSV import: a file chosen by drag-and-drop or the file input is posted to /imp as multipart `data`, with
// upload progress from XMLHttpRequest (fetch reports none) and the JSON report (`fmt=json`) shown when the
// server has committed the rows.
import { authorizationHeader, requestLogin } from './credentials.js';
import { byId, formatCount } from './format.js';

export interface ImportOutcome {
  readonly status: number;
  readonly body: string;
}

/** Table name from a file name: QuestDB's default is the file name itself; the console drops the extension. */
export function tableNameOf(fileName: string): string {
  return fileName.replace(/\.(csv|tsv|txt)$/i, '');
}

function upload(file: File, params: URLSearchParams, onProgress: (fraction: number) => void): Promise<ImportOutcome> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `imp?${params.toString()}`);
    const authorization = authorizationHeader();
    if (authorization !== null) request.setRequestHeader('Authorization', authorization);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => resolve({ status: request.status, body: request.responseText }));
    request.addEventListener('error', () => reject(new Error('upload failed: the connection was lost')));
    const form = new FormData();
    form.append('data', file, file.name);
    request.send(form);
  });
}

function summaryOf(outcome: ImportOutcome): { text: string; ok: boolean } {
  try {
    const report: unknown = JSON.parse(outcome.body);
    if (typeof report === 'object' && report !== null && 'rowsImported' in report) {
      const imported = Number(report.rowsImported);
      const rejected = 'rowsRejected' in report ? Number(report.rowsRejected) : 0;
      const location = 'location' in report ? String(report.location) : '';
      return { text: `Imported ${formatCount(imported)} rows into ${location} (${formatCount(rejected)} rejected)`, ok: outcome.status < 400 };
    }
  } catch {
    // Not JSON (a proxy's error page, say): the raw text is shown below.
  }
  return { text: `Import failed (HTTP ${outcome.status})`, ok: false };
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function createImportPanel(onImported: () => void): void {
  const zone = byId('import-drop', HTMLElement);
  const input = byId('import-file', HTMLInputElement);
  const nameInput = byId('import-name', HTMLInputElement);
  const overwrite = byId('import-overwrite', HTMLInputElement);
  const timestamp = byId('import-timestamp', HTMLInputElement);
  const partitionBy = byId('import-partition', HTMLSelectElement);
  const progress = byId('import-progress', HTMLProgressElement);
  const summary = byId('import-summary', HTMLElement);
  const report = byId('import-report', HTMLPreElement);

  const run = async (file: File): Promise<void> => {
    const params = new URLSearchParams({ fmt: 'json', name: nameInput.value.trim() || tableNameOf(file.name), overwrite: String(overwrite.checked) });
    if (timestamp.value.trim() !== '') {
      params.set('timestamp', timestamp.value.trim());
      params.set('partitionBy', partitionBy.value);
    }
    progress.hidden = false;
    progress.value = 0;
    summary.textContent = `Uploading ${file.name}…`;
    summary.className = '';
    report.textContent = '';
    try {
      let outcome = await upload(file, params, (fraction) => { progress.value = fraction; });
      if (outcome.status === 401 && (await requestLogin())) outcome = await upload(file, params, (fraction) => { progress.value = fraction; });
      progress.value = 1;
      const { text, ok } = summaryOf(outcome);
      summary.textContent = text;
      summary.className = ok ? 'ok' : 'error';
      report.textContent = prettyJson(outcome.body);
      if (ok) onImported();
    } catch (error) {
      summary.textContent = String(error);
      summary.className = 'error';
    }
  };

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file !== undefined) void run(file);
    input.value = '';
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const file = event.dataTransfer?.files[0];
    if (file !== undefined) void run(file);
  });
}
