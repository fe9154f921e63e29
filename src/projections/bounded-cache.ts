/** What an entry costs beyond its key and value (the Map's slot, the record, pointers): an estimate. */
export const ENTRY_OVERHEAD = 64;

/**
 * A Map that forgets its oldest entries (insertion order; reads refresh nothing) beyond `capacity` entries
 * or `maxBytes` as `sizeOf` counts them.
 */
export class BoundedCache<T> {
  private readonly map = new Map<string, { value: T; bytes: number }>();
  private bytes = 0;
  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Infinity,
    private readonly sizeOf: (value: T) => number = () => 0,
  ) {}
  has(key: string): boolean {
    return this.capacity > 0 && this.map.has(key);
  }
  get(key: string): T | undefined {
    return this.map.get(key)?.value;
  }
  set(key: string, value: T): void {
    if (this.capacity <= 0) return;
    this.delete(key);
    const bytes = this.sizeOf(value) + key.length + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return; // would push out everything else, for one entry
    while (this.map.size > 0 && (this.map.size >= this.capacity || this.bytes + bytes > this.maxBytes)) {
      this.delete(this.map.keys().next().value!);
    }
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
  }
  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
  /** Entries and bytes held (for tests and diagnostics). */
  get usage(): { entries: number; bytes: number } {
    return { entries: this.map.size, bytes: this.bytes };
  }
  private delete(key: string): void {
    const entry = this.map.get(key);
    if (!entry) return;
    this.map.delete(key);
    this.bytes -= entry.bytes;
  }
}
