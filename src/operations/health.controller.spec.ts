import { redisCheck } from './health.controller';

describe("/readyz's Redis check", () => {
  it('is up while Redis answered lately, and down before its first answer', () => {
    expect(redisCheck(1200, 0)).toEqual({ status: 'up' });
    expect(redisCheck(null, 0)).toEqual({ status: 'down', message: 'Redis has not answered yet' });
  });

  it('blames Redis for a silence the event loop does not explain', () => {
    expect(redisCheck(9000, 40)).toEqual({ status: 'down', message: 'no answer from Redis for 9 s' });
    // A 2.5 s pause leaves 6.5 s of a 9 s silence unexplained: still Redis.
    expect(redisCheck(9000, 2500).message).toBe('no answer from Redis for 9 s');
  });

  it('names the process as late when its blocked event loop explains the silence', () => {
    expect(redisCheck(7000, 6500).message).toBe(
      "no answer read from Redis for 7 s, while this process's event loop was blocked for 6.5 s: the process was late, not Redis (a long synchronous task, or a starved CPU)",
    );
  });
});
