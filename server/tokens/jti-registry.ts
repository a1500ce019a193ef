/** Remembers which token carried each jti, so one jti on two different tokens is seen (§5: unique per token). */

export type JtiUse = 'first' | 'same-token' | 'reused';

/** Forgets the oldest entries past `capacity`, so a long session does not grow without bound. */
export class JtiRegistry {
  private readonly seen = new Map<string, string>();

  constructor(private readonly capacity = 100_000) {}

  /** Records that `tokenSha256` carried `jti` and says whether another token carried it before. */
  use(jti: string, tokenSha256: string): JtiUse {
    const earlier = this.seen.get(jti);
    if (earlier === undefined) {
      this.seen.set(jti, tokenSha256);
      if (this.seen.size > this.capacity) this.seen.delete(this.seen.keys().next().value as string);
      return 'first';
    }
    return earlier === tokenSha256 ? 'same-token' : 'reused';
  }

  /** Whether a token other than `tokenSha256` carried `jti`, without recording anything. */
  usedByAnother(jti: string, tokenSha256: string): boolean {
    const earlier = this.seen.get(jti);
    return earlier !== undefined && earlier !== tokenSha256;
  }

  clear(): void {
    this.seen.clear();
  }
}
