import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';

/**
 * The directory's own address, for the documents that must give absolute links (llms.txt, the API
 * catalog, the change feed): PUBLIC_BASE_URL when the operator set it (behind a proxy, set it), else the
 * request's scheme and Host (a Host that is not a host was refused with 400 before: see
 * refuseBodiesAndWrites in framework-errors.ts).
 */
export function baseUrlOf(request: FastifyRequest, config: AppConfig): string {
  return config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}
