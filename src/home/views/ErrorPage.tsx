export function ErrorPage({ status, message }: { status: number; message: string }) {
  return (
    <main className="error-page">
      <h1>{status === 403 ? 'Access Denied' : status >= 500 ? 'Something went wrong' : `Error ${status}`}</h1>
      <p className="muted">{message}</p>
      <a className="btn btn--primary" href="/">
        Go home
      </a>
    </main>
  );
}
