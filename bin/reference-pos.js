#!/usr/bin/env node
// The reference POS runs from its TypeScript sources, like the sandbox: one process, so signals reach it.
import { register } from 'tsx/esm/api';

register();
await import('../reference-pos/cli.ts');
