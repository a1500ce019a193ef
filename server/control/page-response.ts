/** Sends one page of a control list: the records as a JSON array (as before paging), and a Link to the next page when there is one. */
import type { Request, Response } from 'express';
import { nextPagePath, type Page } from './paging.js';

export function sendPage<T>(req: Request, res: Response, page: Page<T>, cursorName: 'after' | 'before'): void {
  if (page.next !== undefined) res.links({ next: nextPagePath(req.originalUrl, cursorName, page.next) });
  res.json(page.items);
}
