// Reading a local file in fixed-size parts by position, for multipart uploads: a part is read when it is
// about to be sent (and again on a retry), so memory holds at most partsInFlightMax parts.
import { open, stat } from 'node:fs/promises';

export async function fileSizeBytes(path: string): Promise<number> {
  return (await stat(path)).size;
}

export interface FilePart {
  /** 1-based, as S3 numbers parts. */
  readonly partNumber: number;
  readonly offset: number;
  readonly sizeBytes: number;
}

export function planFileParts(fileSizeBytes: number, partSizeBytes: number): FilePart[] {
  const parts: FilePart[] = [];
  for (let offset = 0, partNumber = 1; offset < fileSizeBytes; offset += partSizeBytes, partNumber++) {
    parts.push({ partNumber, offset, sizeBytes: Math.min(partSizeBytes, fileSizeBytes - offset) });
  }
  return parts;
}

export async function readFilePart(path: string, part: FilePart): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(part.sizeBytes);
    let filled = 0;
    while (filled < part.sizeBytes) {
      const { bytesRead } = await handle.read(buffer, filled, part.sizeBytes - filled, part.offset + filled);
      if (bytesRead === 0) throw new Error(`file ${path} shrank while it was being uploaded (part ${part.partNumber})`);
      filled += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}
