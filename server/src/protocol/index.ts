/**
 * What the server shares with the client, the webview's host and the CLI: wire types and requests, where a
 * value came from, ZeRO options, the zeroLens.* settings and how sizes are written. Imports nothing but
 * itself, so the client can bundle it without the server.
 */
export * from './estimate';
export * from './format';
export * from './l10n';
export * from './messages';
export * from './options';
export * from './settings';
export * from './sources';
export * from './releasePins';
