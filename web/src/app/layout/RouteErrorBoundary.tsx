import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * A page whose code could not be loaded (offline, or a deploy replaced the files) shows a way out instead of
 * a blank screen (DESIGN deviation 5). A new `resetKey` (the path) clears the failure: navigating elsewhere
 * starts afresh, without remounting the page on every navigation.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A page failed to load', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="page page--narrow" role="alert">
        <h1>This page could not be loaded</h1>
        <p>Please check your connection, then reload the page.</p>
        <button type="button" className="button-link" onClick={() => window.location.reload()}>
          Reload
        </button>
      </section>
    );
  }
}
