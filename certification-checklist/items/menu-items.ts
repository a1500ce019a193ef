/** MENU: price and name updates (§2.2, §4.2), in the form the partner declares, for each kind of location. */
import type { JournalEntry } from '../../server/journal/journal-entry.js';
import type { ChecklistItem, Traffic, Verdict } from '../checklist-types.js';
import { fieldProblem, itemsOf, priceProblem } from '../menu-body-rules.js';
import { firstRefusal, refusalShape, refusalText, refusedVerdict, rootCauseOf, wasRefused } from '../refusals.js';
import { countOf, errorMessages, isMenu, succeeded, unfaulted } from '../traffic.js';
import { blocked, fail, pass, warn } from '../verdicts.js';

/** One price the step asked the POS to set. */
export interface ExpectedPrice {
  locationId: string;
  itemId: string;
  price: number;
}

/** The cause of updates sent in the other form than the run expects. */
const WRONG_MENU_FORM = 'wrong-menu-form';

const menuCalls = (traffic: Traffic): JournalEntry[] => unfaulted(traffic.entries.filter(isMenu));

/** Every asked price reached its location in an accepted update of the declared form. */
function judgeUpdates(traffic: Traffic): Verdict {
  const expected = (traffic.asked.expected as ExpectedPrice[] | undefined) ?? [];
  const form = traffic.asked.form as string;
  const calls = menuCalls(traffic);
  if (calls.length === 0) return blocked(`the POS sent no menu update${traffic.actor ? ` (${traffic.actor.detail})` : ''}`);
  const locations = [...new Set(expected.map((price) => price.locationId))];
  for (const locationId of locations) {
    const here = calls.filter((entry) => entry.locationId === locationId);
    if (here.length === 0) {
      // The update meant for it (its body names it, in form A) shows where it went and what the sandbox said.
      const meant = calls.find((entry) => (entry.request.body as { LocationId?: unknown } | undefined)?.LocationId === locationId) ?? calls[0]!;
      const went = [...new Set(calls.map((e) => e.locationId))];
      const where = `no menu update came for location ${locationId}; ${went.every((id) => id === undefined) ? 'the updates named no location' : `the updates went to ${went.map((id) => id ?? 'no location').join(', ')}`}`;
      if (!wasRefused(meant)) return fail(where, calls);
      // Refused the way another location's update was (every update sent with one location, say): one cause, one root.
      return { ...fail(`${where}; the one sent was ${refusalText(meant)}`, calls), cause: refusalShape(meant) };
    }
    const accepted = here.filter(succeeded);
    const refused = firstRefusal(here);
    if (refused) return refusedVerdict(`the POS sent the update for ${locationId} as`, refused, here);
    if (accepted.length === 0) return fail(`the update for ${locationId} was answered ${here[0]!.response.status}: ${errorMessages(here[0]!).slice(0, 3).join('; ')}`, here);
    const wrongForm = accepted.find((entry) => entry.menuUpdate?.form !== form);
    if (wrongForm) {
      const said = fail(`the update for ${locationId} was sent in form ${String(wrongForm.menuUpdate?.form)}, but the run expects form ${form}: ${form === 'B' ? 'the capability menu-form-b was declared' : 'form A unless the capability menu-form-b is declared'}`, [wrongForm]);
      // The same at every location: one cause, whose root is the first menu item to meet it.
      return { ...said, cause: WRONG_MENU_FORM };
    }
    for (const price of expected.filter((p) => p.locationId === locationId)) {
      const set = accepted.some((entry) => entry.menuUpdate?.changes.some((change) => change.itemId === price.itemId && change.field === 'Price' && change.to === price.price));
      if (!set) {
        const did = accepted.flatMap((entry) => entry.menuUpdate?.changes ?? []).find((change) => change.itemId === price.itemId && change.field === 'Price');
        const message = `an update for ${locationId} was accepted, but it set ${price.itemId} to ${did ? String(did.to) : 'nothing'}, not ${price.price}`;
        // A price set at 1/100 (or 100×) of the one asked is in the wrong unit: MENU-03's failure, which its entry shows too.
        const wrongUnit = did !== undefined && typeof did.to === 'number' && (did.to === price.price * 100 || Math.round(price.price / 100) === did.to);
        const unit = wrongUnit ? accepted.find((entry) => priceProblem(entry) !== undefined) : undefined;
        if (unit) return { ...blocked(`an update for ${locationId} was accepted, but it set ${price.itemId} to ${String(did!.to)} where ${price.price} was asked, ${did!.to === price.price * 100 ? '100×' : '1/100 of'} it: ${priceProblem(unit)}`, accepted), blockedBy: 'MENU-03' };
        return fail(message, accepted);
      }
    }
  }
  const accepted = calls.filter(succeeded);
  return pass(`${countOf(expected.length, expected.length, 'price')} set by ${accepted.length} accepted form ${form} update${accepted.length === 1 ? '' : 's'} (${locations.join(', ')})`, accepted);
}

/** The rule over every menu call: none broken → pass, else `verdict` naming the first. */
function judgeEachMenuCall(traffic: Traffic, rule: string, why: (entry: JournalEntry) => string | undefined): Verdict {
  const calls = menuCalls(traffic);
  if (calls.length === 0) return blocked('the POS sent no menu update during the run');
  const broken = calls.filter((entry) => why(entry) !== undefined);
  if (broken.length === 0) return pass(`${rule}: all ${calls.length} menu updates`, calls);
  return fail(`${countOf(broken.length, calls.length, 'menu update')} broke the rule; ${broken[0]!.id}: ${why(broken[0]!)}`, broken);
}

/** How often one refused menu update was sent inside the step's window. */
function judgeOneSend(traffic: Traffic): Verdict {
  const calls = traffic.entries.filter(isMenu);
  if (calls.length === 0) return blocked(`the POS sent no menu update, so its handling of VALIDATION_ERROR could not be seen${traffic.actor ? ` (${traffic.actor.detail})` : ''}`);
  // The pass rests on the refusal the step injected: an update no rule answered says nothing of how the POS treats one.
  const first = calls[0]!;
  // Refused by the sandbox before the rule could meet it (v1's retired menu endpoint, say): the refusal is what to fix.
  if (first.fault === undefined && wasRefused(first)) return refusedVerdict('the POS sent the update as', first, calls);
  if (first.fault === undefined || first.response.status !== 400) {
    return blocked(`no menu update met the injected VALIDATION_ERROR: the first (${first.id}) was answered ${first.response.status}${first.fault ? ` by ${first.fault.rule}` : ' by the sandbox itself'}, so what the POS does after one could not be seen`, calls);
  }
  if (calls.length > 1) return fail(`the update refused with VALIDATION_ERROR (${first.id}) was sent ${calls.length} times; a VALIDATION_ERROR will not change by sending the same payload again`, calls);
  return pass(`the update met the injected VALIDATION_ERROR (${first.id}) and was not sent again`, calls);
}

export const MENU_ITEMS: ChecklistItem[] = [
  {
    id: 'MENU-01',
    title: 'A partial update in the declared form is accepted and applied',
    section: '§2.2, §4.2 (rules 1–2)',
    category: 'MENU',
    required: true,
    remediation: 'Send PUT /menu with only the changed items, each with Id, Name, Type and Prices, in the form you declared (A: LocationId and ServiceType; B: no LocationId, Service).',
    step: 'menu-partial',
    passive: false,
    judge: judgeUpdates,
  },
  {
    id: 'MENU-02',
    title: 'A full update of every item is accepted and applied',
    section: '§2.2, §4.2',
    category: 'MENU',
    required: true,
    remediation: 'A full update lists every item of the location, each complete and valid; one bad item rejects the whole update.',
    step: 'menu-full',
    passive: false,
    judge: judgeUpdates,
  },
  {
    id: 'MENU-03',
    title: 'Prices are whole numbers in minor units',
    section: '§2.2 (Price: integer)',
    category: 'MENU',
    required: true,
    remediation: 'Send prices as whole numbers of minor units (11.50 is 1150); never decimals, never major units.',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => judgeEachMenuCall(traffic, 'whole-number prices in minor units', priceProblem),
  },
  {
    id: 'MENU-04',
    title: 'Updates carry only price and name',
    section: '§4.2 (rule 1)',
    category: 'MENU',
    required: true,
    remediation: 'Send only Id, Name, Type and Prices (ServiceType or Service, Price) per item; every other change goes through the back office’s menu synchronization.',
    step: 'all-traffic',
    passive: true,
    judge: (traffic) => judgeEachMenuCall(traffic, 'only price and name fields', fieldProblem),
  },
  {
    id: 'MENU-05',
    title: 'Item Ids are checked before sending',
    section: '§4.2 (rule 3)',
    category: 'MENU',
    required: true,
    remediation: 'Before sending, check every item Id against the menu the POS holds for that location, and refuse (or resync) instead of sending an Id the service does not know.',
    step: 'menu-unknown-item',
    passive: false,
    judge: (traffic) => {
      const itemId = String(traffic.asked.itemId);
      const sent = traffic.entries.filter((entry) => isMenu(entry) && itemsOf(entry).some((item) => item.Id === itemId));
      if (sent.length > 0) return fail(`the POS sent an update for ${itemId}, which is not on the menu; the service answered ${sent[0]!.response.status} ${errorMessages(sent[0]!)[0] ?? ''}`.trim(), sent);
      if (traffic.actor && !traffic.actor.answered) return blocked(`the POS was asked to update ${itemId} but did not answer: ${traffic.actor.detail}`);
      return pass(`the POS sent nothing for the unknown item ${itemId}${traffic.actor ? ` (${traffic.actor.detail})` : ''}`);
    },
  },
  {
    id: 'MENU-06',
    title: 'An update refused with VALIDATION_ERROR is not sent again as is',
    section: '§4.2, §7',
    category: 'MENU',
    required: true,
    remediation: 'Log the request and the VALIDATION_ERROR response (§4.2 rule 3), show the message, and fix the payload; do not loop on the same one.',
    step: 'menu-validation-error',
    passive: false,
    judge: judgeOneSend,
  },
  {
    id: 'MENU-07',
    title: 'Updates are partial and small',
    section: '§4.2 (rules 2–3), §8',
    category: 'MENU',
    required: true,
    remediation: 'Send only the items that changed; keep payloads well under 64 KiB.',
    // Every menu update of the run: a POS that sends some menus whole passed on the one partial update it was judged on.
    step: 'all-traffic',
    drives: ['menu-partial'],
    passive: true,
    judge: (traffic) => {
      const sent = menuCalls(traffic);
      if (sent.length === 0) return blocked('the POS sent no menu update');
      // Size and fullness are findings of updates the sandbox applied: a refused one was never weighed.
      const calls = sent.filter(succeeded);
      if (calls.length === 0) {
        // A refusal of another item's rule is that item's; any other is MENU-01's: a blocked item always names its root.
        return { ...blocked(`no menu update was accepted, so none could be weighed; the first was ${refusalText(sent[0]!)}`, sent), blockedBy: rootCauseOf(sent[0]!) ?? 'MENU-01' };
      }
      const large = calls.filter((entry) => entry.findings.some((found) => found.code === 'FULL_MENU_UPDATE' || found.code === 'MENU_PAYLOAD_OVER_64KIB'));
      if (large.length > 0) {
        const found = large[0]!.findings.find((f) => f.code === 'FULL_MENU_UPDATE' || f.code === 'MENU_PAYLOAD_OVER_64KIB')!;
        return warn(`${countOf(large.length, calls.length, 'accepted menu update')} flagged; the first: ${found.code}: ${found.message}`, large);
      }
      return pass(calls.length === 1 ? 'the accepted menu update lists only what changed' : `all ${calls.length} accepted menu updates list only what changed`, calls);
    },
  },
  {
    id: 'MENU-08',
    title: 'Each Hub brand location’s menu is updated with its own location',
    section: '§1 (Hub), §4.2',
    category: 'MENU',
    required: true,
    capabilities: ['hub'],
    remediation: 'Update each Hub brand’s menu with that brand’s LocationId (header, token sub and, in form A, the body), never the Hub’s first brand.',
    step: 'menu-hub',
    passive: false,
    judge: judgeUpdates,
  },
  {
    id: 'MENU-09',
    title: 'The Kiosk location’s menu is updated',
    section: '§1 (Kiosk), §4.2',
    category: 'MENU',
    required: true,
    capabilities: ['kiosk'],
    remediation: 'Update the kiosk location’s menu like any other, with its own LocationId.',
    step: 'menu-kiosk',
    passive: false,
    judge: judgeUpdates,
  },
];
