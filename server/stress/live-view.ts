/** I/O: a stress run told to the sandbox as it goes, for the dashboard, throttled with a heartbeat; a sandbox that will not hold it costs one warning, never the run. */
import type { ControlClient } from '../cli/control-client.js';
import { STRESS_VIEW_LIMITS, withRecent, type StressRun, type StressRunView } from './stress-run-view.js';
import type { Verdict } from './delivery-verdict.js';
import type { Finding } from './hunt.js';

const THROTTLE_MS = 250;
const HEARTBEAT_MS = 10_000;

export class LiveView {
  private readonly view: StressRunView;
  private id: string | undefined;
  private off = false;
  private sending: Promise<void> | undefined;
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(
    private readonly client: ControlClient,
    start: Pick<StressRunView, 'mode' | 'seed' | 'planned'>,
    private readonly warn: (line: string) => void,
  ) {
    this.view = { ...start, state: 'running', sent: 0, passed: 0, shrinkSends: 0, findings: [], recent: [] };
    this.heartbeat = setInterval(() => this.schedule(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** The run's id on the dashboard (#/stress/<id>), once the sandbox took it. */
  async begin(): Promise<string | undefined> {
    try {
      this.id = (await this.client.call<StressRun>('POST', '/_sandbox/stress-runs', this.view)).id;
    } catch (error) {
      this.stop(error);
    }
    return this.id;
  }

  sent(order: { orderId: string; locationId: string; verdict: Verdict; decidedMs: number; shrinking: boolean }): void {
    if (order.shrinking) this.view.shrinkSends++;
    else {
      this.view.sent++;
      if (order.verdict.ok) this.view.passed++;
    }
    if (order.shrinking) this.view.state = 'shrinking';
    this.view.recent = withRecent(this.view.recent, {
      orderId: order.orderId,
      locationId: order.locationId,
      ok: order.verdict.ok,
      ...(order.verdict.ok ? {} : { kind: order.verdict.kind }),
      decidedMs: Math.round(order.decidedMs),
      shrinking: order.shrinking,
    });
    this.schedule();
  }

  found(finding: Finding): void {
    this.view.state = 'running';
    if (this.view.findings.length < STRESS_VIEW_LIMITS.findings) this.view.findings.push({ kind: finding.kind, message: finding.message.slice(0, 2000), items: finding.minimal.order.Items.length });
    this.schedule();
  }

  /** The last word: the verdict, the files, the rush's times. */
  async end(last: Partial<Pick<StressRunView, 'verdict' | 'reportDir' | 'rush'>> & { files?: string[] }): Promise<void> {
    clearInterval(this.heartbeat);
    clearTimeout(this.timer);
    this.view.state = 'done';
    if (last.verdict !== undefined) this.view.verdict = last.verdict.slice(0, 500);
    if (last.reportDir !== undefined) this.view.reportDir = last.reportDir.slice(0, 1000);
    if (last.rush !== undefined) this.view.rush = last.rush;
    last.files?.forEach((file, at) => {
      if (this.view.findings[at]) this.view.findings[at]!.file = file.slice(0, 1000);
    });
    await this.sending;
    await this.put();
  }

  private schedule(): void {
    if (this.off || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.sending !== undefined) {
        this.dirty = true;
        return;
      }
      this.sending = this.put().finally(() => {
        this.sending = undefined;
        if (this.dirty) {
          this.dirty = false;
          this.schedule();
        }
      });
    }, THROTTLE_MS);
    this.timer.unref();
  }

  private async put(): Promise<void> {
    if (this.off || this.id === undefined) return;
    try {
      await this.client.call('PUT', `/_sandbox/stress-runs/${encodeURIComponent(this.id)}`, this.view);
    } catch (error) {
      this.stop(error);
    }
  }

  private stop(error: unknown): void {
    this.off = true;
    clearInterval(this.heartbeat);
    this.warn(`the dashboard will not show this run live: ${(error as Error).message}`);
  }
}
