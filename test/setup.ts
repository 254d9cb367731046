import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers.js';

// Runs before every test file: the temporary folders the file made go when it ends (its own `afterAll`
// hooks run first, so a server still writing into one has stopped).
afterAll(() => removeTempDirs());
