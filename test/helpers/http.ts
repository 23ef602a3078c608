// HTTP clients for tests: execute/validate with parsed JSON bodies and raw responses.
export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** Requests fail after this long instead of hanging a test run. */
const requestTimeoutMs = 120_000;

export async function getJson(url: string, init?: RequestInit): Promise<JsonResponse> {
  const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs), ...init });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function sqlUrl(baseUrl: string, path: string, query: string, params: Record<string, string> = {}): string {
  const search = new URLSearchParams({ query, ...params });
  return `${baseUrl}${path}?${search.toString()}`;
}

export function exec(baseUrl: string, query: string, params: Record<string, string> = {}, init?: RequestInit): Promise<JsonResponse> {
  return getJson(sqlUrl(baseUrl, '/exec', query, params), init);
}

/** Runs a statement and fails the test with the server's error text when it is not a 200. */
export async function execOk(baseUrl: string, query: string): Promise<Record<string, unknown>> {
  const response = await exec(baseUrl, query);
  if (response.status !== 200) throw new Error(`${query} → ${response.status} ${response.text}`);
  if (typeof response.json !== 'object' || response.json === null) throw new Error(`${query} → 200 without a JSON object: ${JSON.stringify(response.text.slice(0, 2000))}`);
  return response.json as Record<string, unknown>;
}

export async function rows(baseUrl: string, query: string): Promise<unknown[][]> {
  const body = await execOk(baseUrl, query);
  return body['dataset'] as unknown[][];
}
