/** PUT /menu (§4.2), the locations and their menus, and their OpenAPI parts. */
import { ApiError } from '../errors.js';
import type { Location } from '../fixtures/fixture-schemas.js';
import { addFindings, enforceStrict, setFindingsHeader } from '../http/findings.js';
import { LOCATION_REQUIRED, locationRequired } from '../http/pos-call.js';
import type { ControlRoute, PosRoute } from '../http/route.js';
import type { Logger } from '../logger.js';
import { checkQuery } from '../control/control-query.js';
import { byId, controlOk, controlResponses, ref, schemaComponents } from '../openapi/openapi-parts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { applyMenuUpdate, type MenuUpdateOutcome, menuUpdateFindings } from './apply-menu-update.js';
import { checkMenuUpdate } from './menu-update-check.js';
import type { MenuUpdateValidators } from './menu-update-schemas.js';

interface MenuDeps {
  strict: boolean;
  store: SandboxStore;
  fixtures: { locations: readonly Location[] };
  menuSchemas: MenuUpdateValidators;
  logger: Logger;
  events: { publish(type: 'menu', data: MenuUpdateOutcome): void };
}

export const menuRoute: PosRoute<MenuDeps> = {
  method: 'PUT',
  path: '/menu',
  api: 'pos',
  family: 'menu',
  handle: ({ strict, store, fixtures, menuSchemas, logger, events }) => {
    const context = { validators: menuSchemas, locations: fixtures.locations, menuOf: (id: string) => store.menu(id) };
    return async (_req, res) => {
      const check = checkMenuUpdate(res.locals.body, res.locals.locationId, context);
      // A missing location header beside v1's CompanyProfileId header: the refusal names the v1 header (§9).
      if (!check.ok) throw new ApiError('VALIDATION_ERROR', check.problems.map((problem) => (problem === LOCATION_REQUIRED ? locationRequired(res.locals.v1LocationHeader) : problem)));
      // Check, apply and store run without an await between them, so concurrent updates cannot interleave.
      const { update } = check;
      const { menu, changes } = applyMenuUpdate(check.menu, update);
      addFindings(res, menuUpdateFindings(update, check.menu, changes));
      enforceStrict(res, strict);
      if (changes.length > 0) {
        store.putMenu(update.locationId, menu);
        await store.commit();
        logger.info({ location: update.locationId, form: update.form, changes: changes.length }, 'menu updated');
      }
      res.locals.menuUpdate = { form: update.form, locationId: update.locationId, changes };
      events.publish('menu', res.locals.menuUpdate);
      setFindingsHeader(res);
      res.set('x-sandbox-menu-changes', String(changes.length));
      // §4.2: success is 200; the sandbox sends no body, as for refunds.
      res.status(200).end();
    };
  },
  doc: {
    name: 'menu',
    summary: 'Update item prices and names (§4.2), forms A and B',
    description:
      'The POS pushes new item prices and names (§4.2; only those, rule 1), partial updates preferred (rule 2). ' +
      'Form A carries LocationId (equal to the header) and prices with ServiceType; form B has no LocationId and prices with Service (§2.2). The whole update is checked first: any problem rejects it, and nothing is applied.',
    body: { oneOf: [ref('MenuUpdateFormA'), ref('MenuUpdateFormB')] },
    ok: 'Applied and stored; no body. GET /_sandbox/locations/{id}/menu shows the result.',
    okHeader: ['x-sandbox-menu-changes', { schema: { type: 'integer' }, description: 'How many names and prices changed.' }],
    invalid: "VALIDATION_ERROR: every problem, each naming its JSON path, an unknown location included (§4.2, §7: the status is the sandbox's choice)",
    envelope: 'MenuErrorEnvelope',
  },
};

type StoreAndFixtures = { store: SandboxStore; fixtures: { locations: readonly Location[] } };

export const locationsRoute: ControlRoute<StoreAndFixtures> = {
  method: 'GET',
  path: '/_sandbox/locations',
  api: 'control',
  handle: ({ store, fixtures }) =>
    (req, res) => {
      checkQuery(req.query, []);
      res.json(fixtures.locations.map((location) => ({ ...location, menuItems: store.menu(location.id)?.Items.length ?? 0 })));
    },
  doc: {
    operationId: 'locations',
    summary: 'The locations',
    description: 'The merchant locations of the fixtures (the x-service-locationid values, §4), with how many items each menu has.',
    responses: controlResponses({ '200': controlOk('Locations', { type: 'array', items: { type: 'object' } }) }, { invalid: 'any query parameter' }),
  },
};

export const locationMenuRoute: ControlRoute<StoreAndFixtures> = {
  method: 'GET',
  path: '/_sandbox/locations/:id/menu',
  api: 'control',
  handle: ({ store }) =>
    (req, res) => {
      const menu = store.menu(String(req.params.id));
      if (!menu) throw new ApiError('NOT_FOUND', `no location '${req.params.id}'; GET /_sandbox/locations lists them`);
      res.json(menu);
    },
  doc: byId('locationMenu', "A location's current menu", 'The menu as the accepted menu updates (§4.2) left it.', 'The menu', { type: 'object' }, 'no location with this id', 'loc-std-001'),
};

/** Forms A and B as components: the files of menu-template/schemas the server validates with. */
export const menuSchemas = (schemas: { A: object; B: object }) => ({
  // Hoisted: tools resolve an embedded schema's #/definitions/… against the document root, not its $id.
  ...schemaComponents('MenuUpdateFormA', schemas.A),
  ...schemaComponents('MenuUpdateFormB', schemas.B),
});
