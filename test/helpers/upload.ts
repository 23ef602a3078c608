// Builds multipart /imp requests from named parts, as a browser or curl -F would send them.
export interface UploadPart {
  readonly name: string;
  readonly filename?: string;
  readonly content: string | Uint8Array;
}

export function multipartBody(parts: readonly UploadPart[], boundary = '----svc-test-boundary'): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`));
    chunks.push(typeof part.content === 'string' ? Buffer.from(part.content) : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function importCsv(baseUrl: string, params: Record<string, string>, parts: readonly UploadPart[]): Promise<{ status: number; text: string; json: unknown }> {
  const { body, contentType } = multipartBody(parts);
  const response = await fetch(`${baseUrl}/imp?${new URLSearchParams(params).toString()}`, { method: 'POST', body, headers: { 'Content-Type': contentType } });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}
