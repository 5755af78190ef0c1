/**
 * The account pages (SPEC §2 'Client pages'), code-split: react-hook-form and the schemas load with them,
 * not with the marketing site. App.tsx mounts these inside the site layout; /client and /client_test are
 * the app layer's (web/src/app/client), which hands `ClientPage` the upload utility.
 */
import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { lazyModule } from '../../lib/lazyModule';
import type { ClientPageProps } from './ClientPage';
import type { LoginFormProps } from './LoginForm';

const A = 'src/features/account';

export const ClientPage = lazyModule<ClientPageProps>(`${A}/ClientPage.tsx`, () => import('./ClientPage'));
export const RegisterPage = lazyModule(`${A}/RegisterPage.tsx`, () => import('./RegisterPage'));
export const ResetPasswordPage = lazyModule(
  `${A}/ResetPasswordPage.tsx`,
  () => import('./ResetPasswordPage'),
);
export const SecurityPage = lazyModule(`${A}/SecurityPage.tsx`, () => import('./SecurityPage'));
const LazyLoginForm = lazyModule<LoginFormProps>(`${A}/LoginForm.tsx`, () => import('./LoginForm'));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p role="status">Loading…</p>}>{children}</Suspense>;
}

/**
 * The sign-in form for any page (SPEC §2: /client and /manage_order_forms). `onSignedIn` is called once
 * signed in; `requireRole="staff"` refuses client accounts with 'You are not authorised to use this page.'.
 */
export function LoginForm(props: LoginFormProps) {
  return (
    <Loading>
      <LazyLoginForm {...props} />
    </Loading>
  );
}

/** Route elements for `<Routes>` (a fragment: React Router reads routes inside fragments). */
export const accountRoutes = (
  <>
    <Route
      path="register"
      element={
        <Loading>
          <RegisterPage />
        </Loading>
      }
    />
    <Route
      path="account/security"
      element={
        <Loading>
          <SecurityPage />
        </Loading>
      }
    />
    <Route
      path="reset_password"
      element={
        <Loading>
          <ResetPasswordPage />
        </Loading>
      }
    />
  </>
);
