/** Who makes the POS act: its test build through the driver contract, or a person told what to do; either way the journal decides, never a driver's "done". */
import type { ActorAnswer } from './checklist-types.js';
import { causeOf } from './sandbox-control.js';

export interface RefundAsk {
  sandboxUrl: string;
  locationId: string;
  externalId: string;
}

export interface MenuAsk {
  sandboxUrl: string;
  locationId: string;
  form: 'A' | 'B';
  changes: Array<{ itemId: string; price?: number; name?: string }>;
  /** The same request in words, for a person. */
  words: string;
}

export interface DecideAsk {
  orderId: string;
  decision: 'ACCEPTED' | 'REJECTED';
  reason?: string;
  /** The order in words (template and location), for a person. */
  words: string;
}

export interface PosActor {
  readonly mode: 'driver' | 'interactive';
  /** How long to wait for the traffic the POS causes once asked. */
  readonly waitMs: number;
  refund(ask: RefundAsk): Promise<ActorAnswer>;
  menu(ask: MenuAsk): Promise<ActorAnswer>;
  decide(ask: DecideAsk): Promise<ActorAnswer>;
  /** Shown while waiting: the seconds left. */
  tick(secondsLeft: number): void;
  /** The wait is over. */
  done(): void;
}

/** The POS test build, through the driver contract: JSON over HTTP, 2xx once the POS has done it. */
export class DriverActor implements PosActor {
  readonly mode = 'driver';

  constructor(
    readonly url: string,
    readonly waitMs: number,
    private readonly send: (input: string | URL, init?: RequestInit) => Promise<Response> = fetch,
  ) {}

  refund = (ask: RefundAsk) => this.post('/refund', { sandboxUrl: ask.sandboxUrl, locationId: ask.locationId, externalId: ask.externalId });
  menu = (ask: MenuAsk) => this.post('/menu', { sandboxUrl: ask.sandboxUrl, locationId: ask.locationId, form: ask.form, changes: ask.changes });
  decide = (ask: DecideAsk) => this.post('/decide', { orderId: ask.orderId, decision: ask.decision, ...(ask.reason ? { reason: ask.reason } : {}) });
  tick(): void {}
  done(): void {}

  private async post(path: string, body: unknown): Promise<ActorAnswer> {
    const url = new URL(path.replace(/^\//, ''), this.url.endsWith('/') ? this.url : `${this.url}/`);
    try {
      const response = await this.send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.waitMs),
      });
      const text = (await response.text()).slice(0, 300);
      if (response.ok) return { answered: true, status: response.status, detail: `driver POST ${path} answered ${response.status}` };
      return { answered: true, status: response.status, detail: `driver POST ${path} answered ${response.status}: ${text}` };
    } catch (error) {
      const why = (error as Error).name === 'TimeoutError' ? `no answer within ${Math.round(this.waitMs / 1000)} s` : causeOf(error);
      return { answered: false, detail: `driver POST ${url.href}: ${why}` };
    }
  }
}

/** A person at the POS: each request printed with the reference to type in, then a countdown while the checklist waits. */
export class InteractiveActor implements PosActor {
  readonly mode = 'interactive';

  constructor(
    private readonly out: { write(text: string): unknown },
    readonly waitMs: number,
    private readonly live: boolean,
  ) {}

  refund = async (ask: RefundAsk) => this.say(`refund the order with ExternalId ${ask.externalId} at location ${ask.locationId}`);
  menu = async (ask: MenuAsk) => this.say(ask.words);
  decide = async (ask: DecideAsk) =>
    this.say(`an order is on its way: ${ask.words}, reference ${ask.orderId}. ${ask.decision === 'ACCEPTED' ? 'ACCEPT it' : `REJECT it, with the reason "${ask.reason ?? ''}"`}`);

  private counting = false;

  tick(secondsLeft: number): void {
    // A terminal gets one line that counts down; a log file gets the first second and then one line every 10 s.
    if (this.live) this.out.write(`\r         waiting for the POS: ${String(secondsLeft).padStart(3)} s left `);
    else if (!this.counting || secondsLeft % 10 === 0) this.out.write(`         waiting for the POS: ${secondsLeft} s left\n`);
    this.counting = true;
  }

  done(): void {
    if (this.live && this.counting) this.out.write(`\r${' '.repeat(48)}\r`);
    this.counting = false;
  }

  private say(words: string): ActorAnswer {
    this.out.write(`  >>     At the POS: ${words}. (${Math.round(this.waitMs / 1000)} s)\n`);
    return { answered: true, detail: 'asked the person at the POS' };
  }
}
