// The symbol dictionary writer opens what a crash can leave behind: here an index file that was created but
// never got its first offset (a kill while CREATE TABLE or an ILP request made the table).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realFiles } from '../../../src/core/files.js';
import { SymbolDictionaryWriter, symbolFilePaths } from '../../../src/storage/symbol-dictionary.js';

test('an empty index left by a crash during creation opens as an empty dictionary', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-symbols-'));
  try {
    writeFileSync(symbolFilePaths(dir, 'sym').index, Buffer.alloc(0));
    const dictionary = new SymbolDictionaryWriter(realFiles, dir, 'sym', 0);
    t.is(dictionary.count, 0);
    t.is(dictionary.keyOf('a'), 0);
    dictionary.flush(false);
    const reopened = new SymbolDictionaryWriter(realFiles, dir, 'sym', 1);
    t.is(reopened.valueOf(0), 'a');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
