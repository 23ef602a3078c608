// Copies the non-TypeScript files the service reads at run time into dist/ after tsc.
import { cpSync } from 'node:fs';

cpSync('src/log/default-alert-template.json', 'dist/log/default-alert-template.json');
