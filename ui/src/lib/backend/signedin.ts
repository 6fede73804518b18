/** The page the provider sends the sign-in popup back to; `studio serve` answers it with the app (websignin.ts). */
export const SIGNED_IN_PATH = '/signed-in';
