// Which process holds which TCP connection, from /proc: a test can see how a server spread its connections
// over its workers without asking the server.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** Socket inodes of the established IPv4 connections whose local port is `port` (/proc/net/tcp, state 01). */
function establishedInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const lines = readFileSync('/proc/net/tcp', 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const fields = line.trim().split(/\s+/);
    const localPort = parseInt((fields[1] ?? '').split(':')[1] ?? '', 16);
    if (localPort === port && fields[3] === '01' && fields[9] !== undefined) inodes.add(fields[9]);
  }
  return inodes;
}

/** How many of the established connections to local `port` process `pid` holds open. */
export function connectionsHeldBy(pid: number, port: number): number {
  const inodes = establishedInodes(port);
  let held = 0;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 0;
  }
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined && inodes.has(inode)) held++;
  }
  return held;
}
