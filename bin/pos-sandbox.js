#!/usr/bin/env node
// The sandbox runs from its TypeScript sources: tsx compiles them on load, so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
