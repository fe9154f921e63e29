import { Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { ProblemFilter } from './problem.filter';

/** The filter with a request and a reply that record what is sent. */
function filterCall(error: unknown) {
  const sent: { status?: number; body?: string } = {};
  const reply = {
    request: { raw: { complete: true } },
    code(status: number) {
      sent.status = status;
      return reply;
    },
    header: () => reply,
    send(body: string) {
      sent.body = body;
      return reply;
    },
  };
  const request = { method: 'POST', url: '/upload' };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  new ProblemFilter().catch(error, host);
  return sent;
}

describe('a client that went away', () => {
  it('costs one debug line without a stack, and nothing is sent', () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
      expect(filterCall(aborted)).toEqual({});
      expect(error).not.toHaveBeenCalled();
      expect(debug).toHaveBeenCalledTimes(1);
      expect(String(debug.mock.calls[0][0])).toBe('client went away during POST /upload: aborted');
    } finally {
      debug.mockRestore();
      error.mockRestore();
    }
  });

  it('unlike an unexpected error: 500, logged with its stack', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      expect(filterCall(new TypeError('boom')).status).toBe(500);
      expect(String(error.mock.calls[0][0])).toMatch(/TypeError: boom\n\s+at /);
    } finally {
      error.mockRestore();
    }
  });
});
