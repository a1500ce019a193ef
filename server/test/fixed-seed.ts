/**
 * jest's setupFiles: every property test draws its cases from one fixed seed, so a run of the suite gives the same
 * verdict as the last one; `POS_SANDBOX_FC_SEED=random` draws afresh (fast-check prints the seed of a failure, which
 * `POS_SANDBOX_FC_SEED=<that seed>` replays). `npm run fuzz` is the search for new cases.
 */
import fc from 'fast-check';

const wanted = process.env.POS_SANDBOX_FC_SEED;
if (wanted !== 'random') fc.configureGlobal({ seed: wanted === undefined ? 20261202 : Number(wanted) });
