/**
 * The account feature's public face: the pages /register and /reset_password, the client portal's frame
 * (`ClientPage`, which the app layer mounts at /client with the upload utility inside), and the sign-in form
 * other pages show (the staff area's). The session itself — who is signed in, signing out, the expiry
 * checks — is lib/session.tsx (`SessionProvider`, `useSession`, `usePortalSessionCheck`), since every
 * feature needs it.
 */
export { accountRoutes, ClientPage, LoginForm } from './routes';
export { StaffInvitePage } from './invite-route';
export type { ClientPageProps } from './ClientPage';
export type { LoginFormProps } from './LoginForm';
