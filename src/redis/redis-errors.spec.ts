import { describeRedisError } from './redis-errors';

describe('a Redis client error in words', () => {
  it.each([
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'no connection to Redis'],
    [Object.assign(new Error('Reached the max retries per request limit (which is 3). Refer to "maxRetriesPerRequest" option for details.'), { name: 'MaxRetriesPerRequestError' }), 'Redis did not answer (the connection failed while waiting)'],
    [new Error('Connection is closed.'), 'the connection to Redis closed'],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }), 'connection refused (nothing listens there)'],
    [new Error('LOADING Redis is loading the dataset in memory'), 'Redis is loading its data into memory'],
    [new Error('WRONGPASS invalid username-password pair or user is disabled.'), 'Redis refused the credentials'],
    [new Error('ERR unknown command'), 'ERR unknown command'],
  ])('%s', (error, words) => {
    expect(describeRedisError(error)).toBe(words);
    expect(describeRedisError(error)).not.toMatch(/enableOfflineQueue|maxRetriesPerRequest/);
  });
});
