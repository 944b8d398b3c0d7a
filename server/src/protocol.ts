/**
 * Custom messages between the ZeRO Lens client and server, defined once for both sides.
 * Type-only on the client side: it imports nothing here at run time except the method names.
 */
export const EstimateViewRequest = 'zeroLens/estimateView';
export const ConfigurationChangedNotification = 'zeroLens/configurationChanged';

export interface EstimateViewParams {
  uri: string;
}
