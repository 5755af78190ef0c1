/**
 * The account feature's public face (issue 5): the client pages /client, /register and /reset_password,
 * and the sign-in form other features show (/manage_order_forms). The session itself — who is signed in,
 * signing out, the expiry checks — is lib/session.tsx (`SessionProvider`, `useSession`,
 * `usePortalSessionCheck`), since every feature needs it.
 */
export { accountRoutes, LoginForm } from './routes';
export type { LoginFormProps } from './LoginForm';
