import { Injectable } from '@nestjs/common';

type Listener = (checkpoint: string) => Promise<void>;

/**
 * Tells this process's readers that the read models changed, at once: the projector publishes every
 * change on a Redis channel for other processes, and a reader here should not serve the old data until
 * that message comes back. Readers subscribe; the projection side only notifies (it never knows them).
 */
@Injectable()
export class ReadModelChanges {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async notify(checkpoint: string): Promise<void> {
    await Promise.all([...this.listeners].map((listener) => listener(checkpoint)));
  }
}
