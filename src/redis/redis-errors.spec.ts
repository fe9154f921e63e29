import { ReplyError } from 'ioredis';
import { describeRedisError, isStoreUnavailable } from './redis-errors';

describe('a Redis client error in words', () => {
  it.each([
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'no connection to Redis'],
    [Object.assign(new Error('Reached the max retries per request limit (which is 3). Refer to "maxRetriesPerRequest" option for details.'), { name: 'MaxRetriesPerRequestError' }), 'Redis did not answer (the connection failed while waiting)'],
    [new Error('Connection is closed.'), 'the connection to Redis closed'],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }), 'connection refused (nothing listens there)'],
    [new ReplyError('LOADING Redis is loading the dataset in memory'), 'Redis is loading its data into memory'],
    [new ReplyError('WRONGPASS invalid username-password pair or user is disabled.'), 'Redis refused the credentials'],
    [new ReplyError('ERR unknown command'), 'ERR unknown command'],
    [new Error('LOADING, but not from Redis'), 'LOADING, but not from Redis'],
  ])('%s', (error, words) => {
    expect(describeRedisError(error)).toBe(words);
    expect(describeRedisError(error)).not.toMatch(/enableOfflineQueue|maxRetriesPerRequest/);
  });
});

describe('a store that cannot be reached', () => {
  it.each([
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), true],
    [new Error('Connection is closed.'), true],
    [Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }), true],
    [new ReplyError('CLUSTERDOWN The cluster is down'), true],
    [new ReplyError('LOADING Redis is loading the dataset in memory'), true],
    [new ReplyError('NOAUTH Authentication required.'), false],
    [new ReplyError('ERR unknown command'), false],
    [new Error('a listing named ECONNREFUSED'), false],
    [new TypeError('x is undefined'), false],
  ])('%s', (error, unavailable) => {
    expect(isStoreUnavailable(error)).toBe(unavailable);
  });
});
