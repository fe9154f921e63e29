import { Injectable } from '@nestjs/common';

/** Set when the process has been told to stop: answers ask clients to reconnect (to another process). */
@Injectable()
export class Draining {
  active = false;
}
