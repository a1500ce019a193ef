/**
 * POST /_sandbox/secrets/check {texts: {name: text}}: which of the texts hold the partner's key or a token, as the
 * redaction finds them (any letter case, any encoding it decodes). The checklist asks it before a run, so that no
 * field of a report (the POS's name, version, build, the URLs) carries the key: the CLI does not know the key. It
 * answers names only, never the texts: nothing of the key can be read out of it but whether a whole one is there.
 */
import { Router } from 'express';
import { ApiError } from '../errors.js';
import { describeValue } from '../http/describe-value.js';
import type { Redactor } from './redactor.js';
import { readJsonBody } from '../http/json-body.js';
import type { ControlDeps } from '../control/control-router.js';

/** At most this many texts a call, each at most this long: what a report's fields need. */
const MAX_TEXTS = 50;
const MAX_TEXT_LENGTH = 4096;

/** Does `text` hold a secret the redaction would take out? */
export function holdsSecret(redactor: Redactor, text: string): boolean {
  return redactor.text(text) !== text;
}

export function secretRoutes(deps: Pick<ControlDeps, 'journal'>): Router {
  const router = Router();
  router.post('/secrets/check', readJsonBody, (_req, res) => {
    const body = res.locals.body;
    if (!body?.ok) throw new ApiError('INVALID_REQUEST', body?.problem ?? 'body is missing');
    const texts = (body.value as { texts?: unknown } | null)?.texts;
    const problem = checkTexts(body.value, texts);
    if (problem !== undefined) throw new ApiError('INVALID_REQUEST', problem);
    const entries = Object.entries(texts as Record<string, string>);
    res.json({ holding: entries.filter(([, text]) => holdsSecret(deps.journal.redactor, text)).map(([name]) => name) });
  });
  return router;
}

function checkTexts(body: unknown, texts: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).some((field) => field !== 'texts')) {
    return `body must be {"texts": {"<name>": "<text>", …}}, got ${describeValue(body)}`;
  }
  if (typeof texts !== 'object' || texts === null || Array.isArray(texts)) return `texts must be an object of names and texts, got ${describeValue(texts)}`;
  const entries = Object.entries(texts);
  if (entries.length > MAX_TEXTS) return `texts holds ${entries.length} texts; at most ${MAX_TEXTS} are checked at once`;
  const wrong = entries.find(([, text]) => typeof text !== 'string' || text.length > MAX_TEXT_LENGTH);
  return wrong === undefined ? undefined : `texts.${wrong[0]} must be a string of at most ${MAX_TEXT_LENGTH} characters, got ${describeValue(wrong[1])}`;
}
