/**
 * jest's setupFiles: the sources load the validators `npm run build` compiled (jest's globalSetup builds), as the
 * bins do, instead of compiling every schema again in each of the ~100 test files (about 0.25 s of CPU each).
 * ajv's own compiling is still tested: compiled-schemas.test.ts holds every built validator to it, and a schema
 * a test changes has no built validator, so it is compiled.
 */
process.env.POS_SANDBOX_BUILT_VALIDATORS = 'dist';
