export function NotFoundPage({ signedIn }: { signedIn: boolean }) {
  return (
    <main className="not-found">
      <h1>404 Page Not Found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <a className="btn btn--primary" href="/">
        {signedIn ? 'Back to Dashboard' : 'Back to Home'}
      </a>
    </main>
  );
}
