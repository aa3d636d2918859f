/** Counts events in a sliding time window: the AXL write throttle and the RisPort rate limit. */
export class SlidingWindow {
  private readonly times: number[] = [];

  constructor(
    private readonly limit: () => number,
    private readonly windowMs: number,
  ) {}

  /** Records an event and returns true, or returns false (recording nothing) when the window is full. */
  tryTake(now = Date.now()): boolean {
    while (this.times.length > 0 && (this.times[0] as number) <= now - this.windowMs) this.times.shift();
    if (this.times.length >= this.limit()) return false;
    this.times.push(now);
    return true;
  }

  reset(): void {
    this.times.length = 0;
  }
}
