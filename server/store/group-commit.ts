/** Every change awaits a flush that starts after it, and the changes made during one flush share the next: N concurrent requests, one write. */
export class GroupCommit {
  private waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly flush: () => Promise<void>,
    private readonly defer: (run: () => void) => void = setImmediate,
  ) {}

  /** Resolves once everything changed before this call is on disk. */
  commit(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.running && this.waiting.length === 1) this.defer(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    this.running = true;
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.flush();
      for (const waiter of batch) waiter.resolve();
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    } finally {
      this.running = false;
      if (this.waiting.length > 0) this.defer(() => void this.run());
    }
  }
}
