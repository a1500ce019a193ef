/**
 * Every page of a control API list over HTTP, following its Link rel="next": a journal page may hold fewer entries
 * than its limit (it stops at 1 MiB of bodies, and at 25 ms of redaction on a busy machine), so a test that read the
 * first page alone saw part of the journal when the machine was loaded.
 */
import { nextPageLink } from '../control/control-query.js';

/** Each page's JSON text, in order: a test that searches the text searches all of them. */
export async function allPageTexts(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<string[]> {
  const texts: string[] = [];
  for (let next: string | undefined = path; next !== undefined; ) {
    const answer: Response = await fetch(`${baseUrl}${next}`, { headers });
    if (answer.status !== 200) throw new Error(`GET ${next} answered ${answer.status}: ${await answer.text()}`);
    texts.push(await answer.text());
    next = nextPageLink(answer.headers.get('link'));
  }
  return texts;
}

/** Every item of the list, all pages. */
export async function allPages<T>(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<T[]> {
  return (await allPageTexts(baseUrl, path, headers)).flatMap((text) => JSON.parse(text) as T[]);
}
