/**
 * Pure: a token bucket. `rate` tokens a second flow in, up to `burst` held; a request takes one. A partner that sends
 * at its rate is never refused; one that sends faster is refused for the excess, told how long until a token is
 * there again.
 */
export class RateBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly clock: () => number,
  ) {
    this.tokens = burst;
    this.last = clock();
  }

  /** Takes a token: undefined when there was one, else the whole seconds to wait for the next. */
  take(): number | undefined {
    const now = this.clock();
    // A clock that went back (a test's, or the system's) adds nothing, and takes nothing away.
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) * this.rate) / 1000);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) / this.rate));
  }
}
