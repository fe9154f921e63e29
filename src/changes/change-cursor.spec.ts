import { ApiProblem } from '../http/problem';
import { START_POSITION } from '../event-store/event-store.service';
import { decodeChangeCursor, encodeChangeCursor } from './change-cursor';

describe('change feed cursors', () => {
  it('give back the position they were made from', () => {
    for (const position of [START_POSITION, '1764000000000-0', '1764000000000-41', '9999999999999999-9999999999999999']) {
      const cursor = encodeChangeCursor(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeChangeCursor(cursor)).toBe(position);
    }
  });

  it('refuse anything this API did not give out, naming since', () => {
    const good = encodeChangeCursor('1764000000000-3');
    const bad = [
      'nope',
      '1764000000000-3',
      `${good}!`,
      `${good}==`,
      Buffer.from('c2:1764000000000-3').toString('base64url'),
      Buffer.from('c1:1764000000000').toString('base64url'),
      Buffer.from('c1:01-0').toString('base64url'),
      Buffer.from('c1:-1-0').toString('base64url'),
      Buffer.from('c1:99999999999999999-0').toString('base64url'),
    ];
    for (const raw of bad) {
      let thrown: unknown;
      try {
        decodeChangeCursor(raw);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiProblem);
      expect((thrown as ApiProblem).status).toBe(400);
      expect((thrown as ApiProblem).extra).toEqual({ parameter: 'since' });
    }
  });
});
