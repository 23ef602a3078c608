// Which process holds which TCP connection, from /proc: a test can see how a server spread its connections
// over its workers without asking the server.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { childPids } from './proc-stat.js';
import { waitUntil } from './ilp-tcp.js';

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

/** Connections to local `port` each child of `parentPid` (a server's workers) holds, ascending (for comparing counts only). */
export function connectionsPerChild(parentPid: number, port: number): number[] {
  return childPids(parentPid).map((pid) => connectionsHeldBy(pid, port)).sort((a, b) => a - b);
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * True once both workers of a two-worker server take connections to `port`: a worker does once it is ready,
 * which on a loaded machine can be after the server answers HTTP. Two connections opened together land one on
 * each only then; they are closed again, and the primary given time to count them gone (it hears of a close
 * from the worker, just after /proc shows it).
 */
export async function untilBothWorkersTakeConnections(parentPid: number, port: number, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const probes = await Promise.all([openSocket(port), openSocket(port)]);
    const spread = await waitUntil(() => connectionsPerChild(parentPid, port).join() === '1,1', 500, 20);
    for (const probe of probes) probe.destroy();
    await waitUntil(() => connectionsPerChild(parentPid, port).join() === '0,0', 5000, 20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (spread) return true;
  }
  return false;
}
