// A map with a bound on its entries that evicts the least recently used one when full.
// A Map iterates in insertion order, so re-inserting on every hit keeps the oldest-used entry first.
// Invariant: size <= entriesMax after every call.
import { assert } from './assert.js';

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private entriesMaxValue: number) {
    assert(Number.isSafeInteger(entriesMaxValue) && entriesMaxValue >= 1, 'an LRU cache holds at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  get entriesMax(): number {
    return this.entriesMaxValue;
  }

  /** The value of `key`, which becomes the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Stores `value` as the most recently used entry; returns how many entries were evicted to make room. */
  set(key: K, value: V): number {
    this.entries.delete(key);
    this.entries.set(key, value);
    return this.trim();
  }

  /** Changes the bound; evicts the least recently used entries beyond it and returns how many. */
  resize(entriesMax: number): number {
    assert(Number.isSafeInteger(entriesMax) && entriesMax >= 1, 'an LRU cache holds at least one entry');
    this.entriesMaxValue = entriesMax;
    return this.trim();
  }

  clear(): void {
    this.entries.clear();
  }

  private trim(): number {
    let evicted = 0;
    while (this.entries.size > this.entriesMaxValue) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
      evicted++;
    }
    assert(this.entries.size <= this.entriesMaxValue, 'an LRU cache stays within its bound');
    return evicted;
  }
}
