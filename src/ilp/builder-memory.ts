// Where the ILP column builders of this process get their buffers and give them back once a request's rows
// are staged (core/array-buffer-pool.ts says why fresh buffers per request cost full collections).
import { ArrayBufferPool } from '../core/array-buffer-pool.js';
import { realIdleTimers } from '../core/idle-check.js';
import { ilpBuilderPoolBytesMax, ilpBuilderPoolIdleMs } from '../core/limits.js';

export const builderMemory = new ArrayBufferPool({ bytesMax: ilpBuilderPoolBytesMax, idleMs: ilpBuilderPoolIdleMs, ...realIdleTimers });
