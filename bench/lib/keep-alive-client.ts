// A lean /exec client for timing loops: node:http over one kept-alive socket, as dashboards and drivers hold
// their connections open. fetch (undici) costs the bench process 0.5-1.5 ms of CPU per request on this machine,
// about twice node:http, and with 2 cores shared with the server that client work lands in the measured wall
// time of every small query. Results are returned as text; the caller parses the JSON when it needs it.
import { Agent, get } from 'node:http';

export interface TextResponse {
  readonly status: number;
  readonly text: string;
}

export interface KeepAliveClient {
  exec(sql: string): Promise<TextResponse>;
  close(): void;
}

/** One socket: sequential requests reuse it, so every request reaches the same server worker. */
export function createKeepAliveClient(baseUrl: string): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    exec: (sql) => getText(`${baseUrl}/exec?query=${encodeURIComponent(sql)}`, agent),
    close: () => agent.destroy(),
  };
}

/** One GET over the keep-alive agent; resolves with the status once the whole body has been read. */
export function getText(url: string, agent: Agent): Promise<TextResponse> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    }).on('error', reject);
  });
}
