// Reading the cold read path's figures from the primary's /metrics exposition (summed over processes).

/** One sample of the primary's /metrics exposition (0 when absent). */
export async function metricValue(adminUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}
