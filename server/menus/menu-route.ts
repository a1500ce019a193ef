/** PUT /menu (§4.2): checks the whole update, applies it atomically, answers 200 once the new menu is on disk. */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { Location } from '../fixtures/fixture-schemas.js';
import type { MenuUpdateValidators } from './menu-update-schemas.js';
import type { Logger } from '../logger.js';
import { applyMenuUpdate, type MenuUpdateOutcome } from './apply-menu-update.js';
import { menuUpdateFindings } from './menu-findings.js';
import { checkMenuUpdate } from './menu-update-check.js';
import { LOCATION_REQUIRED, locationRequired } from '../http/location-header.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../http/findings-header.js';
import type { SandboxStore } from '../store/sandbox-store.js';

export const MENU_CHANGES_HEADER = 'x-sandbox-menu-changes';

export function menuHandler(options: {
  strict: boolean;
  store: SandboxStore;
  locations: readonly Location[];
  validators: MenuUpdateValidators;
  logger: Logger;
  /** Told of every accepted update (GET /_sandbox/events). */
  onApplied?: (outcome: MenuUpdateOutcome) => void;
}): RequestHandler {
  const context = { validators: options.validators, locations: options.locations, menuOf: (id: string) => options.store.menu(id) };
  return async (_req, res) => {
    const check = checkMenuUpdate(res.locals.body, res.locals.locationId, context);
    // A missing location header beside v1's CompanyProfileId header: the refusal names the v1 header (§9).
    if (!check.ok) throw new ApiError('VALIDATION_ERROR', check.problems.map((problem) => (problem === LOCATION_REQUIRED ? locationRequired(res.locals.v1LocationHeader) : problem)));

    // Check, apply and store run without an await between them, so concurrent updates cannot interleave.
    const { update } = check;
    const { menu, changes } = applyMenuUpdate(check.menu, update);
    addFindings(res, menuUpdateFindings(update, check.menu, changes));
    enforceStrict(res, options.strict);
    if (changes.length > 0) {
      options.store.putMenu(update.locationId, menu);
      await options.store.commit();
      options.logger.info({ location: update.locationId, form: update.form, changes: changes.length }, 'menu updated');
    }
    res.locals.menuUpdate = { form: update.form, locationId: update.locationId, changes };
    options.onApplied?.(res.locals.menuUpdate);
    setFindingsHeader(res);
    res.set(MENU_CHANGES_HEADER, String(changes.length));
    // §4.2: success is 200; the sandbox sends no body, as for refunds.
    res.status(200).end();
  };
}
