import { Component, type ReactNode } from 'react';

interface Props {
  /** Changes (the page's path) reset the boundary. */
  resetKey: string;
  fallback: ReactNode;
  children: ReactNode;
}

/** A page that throws while rendering shows the 500 page inside the shell instead of a blank. */
export class ErrorBoundary extends Component<Props, { failed: boolean; key: string }> {
  state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromProps(props: Props, state: { failed: boolean; key: string }) {
    return props.resetKey !== state.key ? { failed: false, key: props.resetKey } : null;
  }

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
