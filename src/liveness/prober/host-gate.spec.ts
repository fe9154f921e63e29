import { HostGate } from './host-gate';

describe('the gate of each host', () => {
  it('lets one request of a host through at a time, in order, spaced; other hosts do not wait', async () => {
    const gate = new HostGate(20);
    const order: string[] = [];
    const first = await gate.take('api.example.com');
    const second = gate.take('API.example.com').then((release) => (order.push('second'), release));
    const elsewhere = await gate.take('docs.example.com');
    order.push('elsewhere');
    elsewhere();
    await Promise.resolve();
    expect(order).toEqual(['elsewhere']);
    const releasedAt = Date.now();
    first();
    const release = await second;
    expect(order).toEqual(['elsewhere', 'second']);
    expect(Date.now() - releasedAt).toBeGreaterThanOrEqual(19);
    release();
    release();
    await (await gate.take('api.example.com'))();
  });
});
