/**
 * The client's side of the shared protocol: each custom request and notification sent with the types the
 * protocol module gives it, so the two sides cannot disagree on a shape.
 */
import type { LanguageClient } from 'vscode-languageclient/node';
import type { NotificationSpec, RequestSpec } from '../../server/src/protocol';

export function sendServerRequest<P, R>(client: LanguageClient, spec: RequestSpec<P, R>, params?: P): Promise<R> {
  return (params === undefined ? client.sendRequest<R>(spec.method) : client.sendRequest<R>(spec.method, params)) as Promise<R>;
}

export function sendServerNotification<P>(client: LanguageClient, spec: NotificationSpec<P>, params?: P): Promise<void> {
  return params === undefined ? client.sendNotification(spec.method) : client.sendNotification(spec.method, params);
}
